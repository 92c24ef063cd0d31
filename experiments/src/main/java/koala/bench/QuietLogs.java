package koala.bench;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The scheduler logs every job it places and every node that arrives: a bench that builds a grid of
 * a thousand jobs through its code would print thousands of lines. Its loggers say only warnings
 * and errors while a bench runs.
 */
final class QuietLogs {
    private QuietLogs() {
    }

    static void koala() {
        Configurator.setLevel("koala", Level.WARN);
    }
}

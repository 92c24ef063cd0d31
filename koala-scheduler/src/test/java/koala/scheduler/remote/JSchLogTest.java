package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;

/** JSch's log lines land in the scheduler's log, under koala.scheduler.remote.ssh, at the levels an admin expects. */
class JSchLogTest {
    @Test
    void jschsChatterIsDebugAndItsWarningsAndErrorsKeepTheirLevels() {
        assertThat(JSchLog.level(com.jcraft.jsch.Logger.DEBUG)).isEqualTo(Level.TRACE);
        assertThat(JSchLog.level(com.jcraft.jsch.Logger.INFO)).isEqualTo(Level.DEBUG);
        assertThat(JSchLog.level(com.jcraft.jsch.Logger.WARN)).isEqualTo(Level.WARN);
        assertThat(JSchLog.level(com.jcraft.jsch.Logger.ERROR)).isEqualTo(Level.ERROR);
        assertThat(JSchLog.level(com.jcraft.jsch.Logger.FATAL)).isEqualTo(Level.FATAL);
    }

    @Test
    void aLineNamesItsSiteAndFollowsTheLoggersLevel() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        org.apache.logging.log4j.core.Logger logger = context.getLogger(JSchLog.NAME);
        Level before = logger.getLevel();
        List<LogEvent> events = new ArrayList<>();
        AbstractAppender appender = new AbstractAppender("jsch-test", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                events.add(event.toImmutable());
            }
        };
        appender.start();
        logger.addAppender(appender);
        try {
            logger.setLevel(Level.DEBUG);
            JSchLog log = new JSchLog("das4");
            assertThat(log.isEnabled(com.jcraft.jsch.Logger.INFO)).isTrue();
            assertThat(log.isEnabled(com.jcraft.jsch.Logger.DEBUG)).isFalse();

            log.log(com.jcraft.jsch.Logger.INFO, "Authentication succeeded (publickey).");
            log.log(com.jcraft.jsch.Logger.WARN, "Permanently added 'fs2' (ED25519) to the list of known hosts.");

            assertThat(events).extracting(LogEvent::getLevel).containsExactly(Level.DEBUG, Level.WARN);
            assertThat(events.get(0).getMessage().getFormattedMessage())
                    .isEqualTo("site das4: Authentication succeeded (publickey).");
            assertThat(events.get(0).getLoggerName()).isEqualTo("koala.scheduler.remote.ssh");
        } finally {
            logger.removeAppender(appender);
            logger.setLevel(before);
        }
    }
}

package koala.grid;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where an SGE cell lives and how its clients reach it: the environment that {@code qsub},
 * {@code qstat} and a DRMAA session read at start-up. Several cells on one machine differ in
 * {@code cell} and in their ports.
 *
 * @param binDir directory of the SGE client commands ({@code qstat}, {@code qhost}, ...)
 */
public record CellEnvironment(Path sgeRoot, String cell, int qmasterPort, int execdPort, Path binDir) {

    /** The variables a process needs to talk to this cell. */
    public Map<String, String> variables() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SGE_ROOT", sgeRoot.toString());
        env.put("SGE_CELL", cell);
        env.put("SGE_QMASTER_PORT", Integer.toString(qmasterPort));
        env.put("SGE_EXECD_PORT", Integer.toString(execdPort));
        return env;
    }

    public Path command(String name) {
        return binDir.resolve(name);
    }
}

package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The plain forms read without picocli give the very commands picocli gives; anything else is picocli's. */
class QuickArgsTest {
    private static CommandSpec picocli(String name) {
        return UserCommands.commandLine(name).getSubcommands().get(name).getCommandSpec();
    }

    @Test
    void itKnowsTheOptionsAndArgumentsOfEachCommandThatPicocliDoes() {
        for (String name : UserCommands.NAMES) {
            CommandSpec spec = picocli(name);
            QuickArgs.Shape shape = QuickArgs.shape(name).orElseThrow();
            List<OptionSpec> options = spec.options().stream().filter(o -> !o.usageHelp() && !o.versionHelp()).toList();
            assertThat(options.stream().filter(o -> o.arity().max() == 0).map(OptionSpec::longestName)
                    .collect(Collectors.toSet())).as(name + " flags").isEqualTo(shape.flags());
            assertThat(options.stream().filter(o -> o.arity().max() > 0).map(OptionSpec::longestName)
                    .collect(Collectors.toSet())).as(name + " options with a value").isEqualTo(QuickArgs.VALUE_OPTIONS);
            assertThat(spec.positionalParameters().stream().mapToInt(p -> p.arity().min()).sum())
                    .as(name + " arguments, at least").isEqualTo(shape.minArgs());
            assertThat(spec.positionalParameters().stream().mapToLong(p -> p.arity().max()).sum())
                    .as(name + " arguments, at most").isEqualTo(shape.maxArgs());
        }
    }

    @Test
    void thePlainFormsGiveWhatPicocliGives() throws Exception {
        List<String> lines = List.of("submit a.jdf", "submit --wait --json a.jdf b.jdf",
                "submit a.jdf --config /etc/grid.properties b.jdf --scheduler http://head:7400",
                "jobs", "jobs --json --config g.properties", "status 12", "status --json 12 --scheduler http://h:2",
                "cancel 0", "cancel 123456789012345678", "sites --json", "sites --scheduler http://[::1]:7400",
                "submit --as alice a.jdf", "cancel 7 --as bob", "cancel 103 104", "cancel 1 --as bob 2 3");
        for (String line : lines) {
            String[] args = line.split(" ");
            Object quick = QuickArgs.parse(args).orElseThrow(() -> new AssertionError("not read: " + line));
            CommandLine cli = UserCommands.commandLine(args[0]);
            cli.parseArgs(args);
            Object viaPicocli = cli.getSubcommands().get(args[0]).getCommand();
            assertThat(fields(quick)).as(line).isEqualTo(fields(viaPicocli));
        }
    }

    @Test
    void everythingElseIsLeftToPicocli() {
        List<String> lines = List.of("submit", "submit --help", "submit -h", "submit -V", "submit --version",
                "submit --config=g a.jdf", "submit -- a.jdf", "submit @args", "submit a.jdf --json --json", "submit -",
                "submit a.jdf --config", "submit a.jdf --config -x", "submit a.jdf --config @g",
                "submit a.jdf --scheduler http://bad^host", "submit --wat a.jdf", "status", "status 1 2", "status x",
                "status 010", "status -1", "cancel 1 --json", "cancel 1 x", "cancel 1 -2", "jobs extra", "jobs --wait", "sites -h", "validate a.jdf",
                "frameworks");
        for (String line : lines) {
            assertThat(QuickArgs.parse(line.split(" "))).as(line).isEmpty();
        }
        assertThat(QuickArgs.parse(new String[0])).isEmpty();
    }

    /** The fields picocli sets, by name, with the grid options' own. */
    private static TreeMap<String, String> fields(Object command) throws IllegalAccessException {
        TreeMap<String, String> values = new TreeMap<>();
        for (Field f : command.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().equals("spec")) {
                continue;
            }
            f.setAccessible(true);
            Object value = f.get(command);
            if (value instanceof GridOptions grid) {
                values.put("config", String.valueOf(grid.config));
                values.put("scheduler", String.valueOf(grid.scheduler));
                values.put("as", String.valueOf(grid.actingFor));
            } else {
                values.put(f.getName(), String.valueOf(value));
            }
        }
        return values;
    }
}

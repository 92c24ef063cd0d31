package koala.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import koala.jdf.JdfException;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.provisioning.InvalidSettingsException;
import koala.provisioning.PolicyKind;
import koala.provisioning.ResolvedSettings;
import koala.provisioning.SettingProblem;
import koala.provisioning.SettingsLayer;
import koala.provisioning.SettingsResolver;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"The effective provisioning settings of framework instances on each site, and where each "
                + "comes from: built-in defaults (the paper's), the site's defaults in the grid configuration "
                + "(site.S.provisioning.KEY), or a framework JDF (--jdf); a site's fMax, weight and minShare are "
                + "ceilings a JDF cannot pass. First, how framework instances share a full grid "
                + "(scheduler.arbitration.*). A bad value is refused with its key and the reason (exit 2).",
                "'koala config check FILE' checks a whole file before it is installed."},
        subcommands = ConfigCheckCommand.class)
final class ConfigCommand implements Callable<Integer> {
    @Mixin
    GridOptions grid;

    @Option(names = "--site", description = "only this site")
    String site;

    @Option(names = "--jdf", paramLabel = "FILE", description = "a framework JDF whose settings to apply")
    Path jdf;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        GridConfig config = grid.grid();
        List<SiteConfig> sites = site == null ? config.sites() : List.of(config.site(site));
        SettingsLayer fromJdf;
        try {
            fromJdf = jdfLayer(config);
        } catch (JdfException e) {
            e.errors().forEach(spec.commandLine().getErr()::println);
            return Koala.BAD_INPUT;
        }
        int status = arbitration(config);
        for (SiteConfig s : sites) {
            status = Math.max(status, print(config, s, fromJdf));
        }
        return status;
    }

    /** How the grid is shared between framework instances ({@code scheduler.arbitration.*}). */
    private int arbitration(GridConfig config) {
        try {
            koala.arbitration.ArbitrationSettings a = koala.arbitration.ArbitrationSettings.parse(
                    config.section("scheduler.arbitration"));
            spec.commandLine().getOut().println("grid: framework instances share a full grid by " + a.describe());
            return 0;
        } catch (InvalidSettingsException e) {
            for (SettingProblem p : e.problems()) {
                spec.commandLine().getErr().println(config.file() + ": scheduler.arbitration." + p.key() + ": "
                        + p.reason());
            }
            return Koala.BAD_INPUT;
        }
    }

    private int print(GridConfig config, SiteConfig s, SettingsLayer fromJdf) {
        String prefix = "site." + s.name() + ".provisioning";
        try {
            ResolvedSettings resolved = SettingsResolver.resolve(s.name(),
                    SettingsLayer.parse(config.section(prefix)), fromJdf);
            spec.commandLine().getOut().println("site " + s.name());
            resolved.describe().forEach(line -> spec.commandLine().getOut().println("  " + line));
            return 0;
        } catch (InvalidSettingsException e) {
            for (SettingProblem p : e.problems()) {
                spec.commandLine().getErr().println(config.file() + ": " + prefix + "." + p.key() + ": " + p.reason());
            }
            return Koala.BAD_INPUT;
        }
    }

    private SettingsLayer jdfLayer(GridConfig config) throws IOException {
        if (jdf == null) {
            return SettingsLayer.EMPTY;
        }
        if (!Files.isReadable(jdf)) {
            throw new IllegalArgumentException(jdf + ": no such readable file");
        }
        JobDescription job = JdfParser.parse(jdf.toString(), Files.readString(jdf), GridCatalog.of(config),
                PolicyKind.shortNames());
        int workers = job.components().stream().filter(c -> "worker".equals(c.role())).mapToInt(c -> c.count()).sum();
        return SettingsLayer.parse(job.framework()).withInitialWorkers(workers);
    }
}

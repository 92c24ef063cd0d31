package koala.placement;

import java.util.List;

/**
 * Close-to-Files ({@code close-to-files}): send each component where its input files arrive
 * soonest.
 *
 * <p>Components go largest first (ties: lower index first). For each, among the sites with enough
 * idle nodes left after this job's earlier components, it takes the one with the least estimated
 * transfer time of the component's input files ({@link #estimatedTransferSeconds}); ties go to the
 * site with more idle nodes left, then to the lower name. A component without input files (or
 * whose files the catalog does not know) costs 0 everywhere, so it is placed as Worst-Fit would.
 * A flexible job is placed whole, not split.
 *
 * <p>The estimate for one file {@code f} to site {@code S}: 0 when {@code S} holds a copy;
 * otherwise the fastest copy, the minimum over the sites {@code R} holding one of
 * {@code bytes(f) / 10^6 / bandwidth(R->S)} seconds, with the bandwidth in MB/s from
 * {@link FileLocations#bandwidthMBps()} (key {@code "R->S"}), or its default when the pair has no
 * entry. A component's estimate is the sum over its files (transfers one after another). A file
 * not in the catalog, or with no copy anywhere, costs 0: nothing can be moved for it, and it does
 * not make the job unplaceable. A bandwidth of 0 or less means the copy cannot be fetched from
 * there (infinite time).
 */
public final class CloseToFiles extends GreedyPolicy {
    public static final String NAME = "close-to-files";
    private static final double BYTES_PER_MB = 1_000_000.0;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    int chooseSite(ComponentNeed c, IdleLedger ledger, GridView grid) {
        int best = -1;
        double bestSeconds = Double.POSITIVE_INFINITY;
        for (int site = 0; site < ledger.size(); site++) {
            if (!ledger.holds(site, c.nodes())) {
                continue;
            }
            double seconds = estimatedTransferSeconds(c.inputFiles(), ledger.name(site), grid.files());
            int cmp = best < 0 ? -1 : Double.compare(seconds, bestSeconds);
            if (cmp < 0 || cmp == 0 && ledger.ranksAbove(site, best)) {
                best = site;
                bestSeconds = seconds;
            }
        }
        return best;
    }

    /**
     * Estimated seconds to bring {@code inputFiles} to {@code site}, as Close-to-Files ranks sites
     * (see the class comment): the sum over the files of the fastest copy's transfer time.
     */
    public static double estimatedTransferSeconds(List<String> inputFiles, String site, FileLocations files) {
        double seconds = 0;
        for (String name : inputFiles) {
            seconds += fileSeconds(files.files().get(name), site, files);
        }
        return seconds;
    }

    private static double fileSeconds(StoredFile file, String site, FileLocations files) {
        if (file == null || file.sites().isEmpty() || file.sites().contains(site)) {
            return 0;
        }
        double fastest = Double.POSITIVE_INFINITY;
        for (String from : file.sites()) {
            double mbps = bandwidth(from, site, files);
            if (mbps > 0) {
                fastest = Math.min(fastest, file.bytes() / BYTES_PER_MB / mbps);
            }
        }
        return fastest;
    }

    private static double bandwidth(String from, String to, FileLocations files) {
        if (files.bandwidthMBps().isEmpty()) {
            return files.defaultBandwidthMBps();
        }
        Double measured = files.bandwidthMBps().get(from + "->" + to);
        return measured != null ? measured : files.defaultBandwidthMBps();
    }
}

package koala.testbed;

import java.util.List;

/** The two plain-text qstat summaries {@code testbed status} reads. */
final class QstatText {
    private QstatText() {
    }

    /** {used, total} slots of {@code queue} from {@code qstat -g c}. */
    static int[] clusterQueueSlots(String qstatGc, String queue) {
        return qstatGc.lines().map(String::trim).filter(l -> l.startsWith(queue + " ")).findFirst()
                .map(l -> l.split("\\s+"))
                // CLUSTER QUEUE  CQLOAD  USED  RES  AVAIL  TOTAL aoACDS  cdsuE
                .map(c -> new int[] {Integer.parseInt(c[2]), Integer.parseInt(c[5])})
                .orElse(new int[] {0, 0});
    }

    /** {running, pending} jobs from {@code qstat -u '*'}. */
    static int[] runningAndPending(String qstat) {
        List<String[]> rows = qstat.lines().skip(2).map(String::trim).filter(l -> !l.isEmpty())
                .map(l -> l.split("\\s+")).filter(c -> c.length >= 5).toList();
        int running = (int) rows.stream().filter(c -> c[4].contains("r") || c[4].contains("t")).count();
        return new int[] {running, rows.size() - running};
    }
}

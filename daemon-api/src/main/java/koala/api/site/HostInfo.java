package koala.api.site;

/** One execution host of a cell, from {@code qhost -xml}; load and memory as SGE reports them. */
public record HostInfo(String name, String arch, Integer processors, Double loadAvg, String memTotal,
                       String memUsed) {
}

package koala.api.site;

/**
 * One execution host of a cell, from {@code qhost -xml}; load and memory as SGE reports them.
 *
 * @param resources what the host offers jobs and what is free of it now ({@code qhost -F -q}), null
 *                  when the adapter did not read them
 */
public record HostInfo(String name, String arch, Integer processors, Double loadAvg, String memTotal,
                       String memUsed, HostResources resources) {

    /** A host whose resources were not read (a manager that reports none, a test's host). */
    public HostInfo(String name, String arch, Integer processors, Double loadAvg, String memTotal, String memUsed) {
        this(name, arch, processors, loadAvg, memTotal, memUsed, null);
    }
}

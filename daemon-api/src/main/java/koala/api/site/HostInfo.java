package koala.api.site;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One execution host of a cell, from {@code qhost -xml}; load and memory as SGE reports them.
 *
 * @param resources what the host offers jobs and what is free of it now ({@code qhost -F -q}), null
 *                  when the adapter did not read them (and then left out of the JSON, as before)
 */
public record HostInfo(String name, String arch, Integer processors, Double loadAvg, String memTotal,
                       String memUsed, @JsonInclude(JsonInclude.Include.NON_NULL) HostResources resources) {

    /** A host whose resources were not read (a manager that reports none, a test's host). */
    public HostInfo(String name, String arch, Integer processors, Double loadAvg, String memTotal, String memUsed) {
        this(name, arch, processors, loadAvg, memTotal, memUsed, null);
    }
}

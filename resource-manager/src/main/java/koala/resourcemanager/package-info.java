/**
 * The seam between KOALA and a cluster's local resource manager (SGE today):
 * {@link koala.resourcemanager.ResourceManager} is what a site agent needs of it — submit a pilot
 * with what it claims ({@link koala.api.site.PilotNeeds}, said in the manager's words by its adapter)
 * and the site's own native specification, cancel it, its state, the cluster's hosts and load,
 * accounting of ended jobs, and reattaching to jobs after a restart. A manager's own vocabulary
 * (SGE's state letters, DRMAA's exceptions, {@code qstat}'s XML, its words for a claim) stays in
 * its adapter module.
 */
package koala.resourcemanager;

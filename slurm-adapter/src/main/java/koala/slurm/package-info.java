/**
 * Slurm's side of the resource-manager seam ({@link koala.resourcemanager.ResourceManager}): what its
 * commands print, read into KOALA's terms. So far the answers of Slurm 22.05 (Debian 12): {@code squeue
 * --json} and {@code sinfo --json} (OpenAPI v0.0.38) and the options of {@code sbatch} that claim a node's
 * cores, memory, GPUs and wall time. Slurm's own vocabulary (job states, wait statuses, GRES strings)
 * stays here.
 */
package koala.slurm;

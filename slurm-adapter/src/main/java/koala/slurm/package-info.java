/**
 * Slurm's side of the resource-manager seam: {@link koala.slurm.SlurmResourceManager} drives a Slurm cluster
 * through its client commands ({@link koala.slurm.SlurmCommands}: {@code sbatch}, {@code scancel}, {@code squeue},
 * {@code sinfo}, {@code scontrol}, {@code sacct}) and reads what they print into KOALA's terms: {@code squeue
 * --json} and {@code sinfo --json} of Slurm 22.05 (OpenAPI v0.0.38), {@code sacct}'s records, and the options of
 * {@code sbatch} that claim a node's cores, memory, GPUs and wall time. Slurm's own vocabulary (job states and
 * reasons, wait statuses, GRES strings, its error messages) stays here.
 */
package koala.slurm;

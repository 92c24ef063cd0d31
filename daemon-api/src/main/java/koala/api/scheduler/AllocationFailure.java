package koala.api.scheduler;

/**
 * Why a runner ends its allocation as FAILED rather than closing it (e.g. its master was lost):
 * kept as the reason of the allocation's last transition.
 */
public record AllocationFailure(String reason) {
}

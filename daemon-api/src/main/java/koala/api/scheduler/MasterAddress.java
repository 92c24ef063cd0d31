package koala.api.scheduler;

/** Where a framework instance's master runs: its node and the address clients use ({@code host:port}). */
public record MasterAddress(String node, String address) {
}

package koala.placement;

/**
 * Why a job, or one of its components, could not be placed — in words a user reads in
 * {@code koala status}, e.g. "needs 12 nodes on one cluster, most idle is 8 on fs1".
 *
 * @param component the component's index, or -1 when the reason is about the whole job
 */
public record Reason(int component, String text) {
    public static Reason job(String text) {
        return new Reason(-1, text);
    }
}

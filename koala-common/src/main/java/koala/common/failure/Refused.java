package koala.common.failure;

/** Well-formed, but the system behind KOALA will not do it: "pilot submission refused by SGE: ...". */
public final class Refused extends Failure {
    public Refused(String message) {
        super(message, null);
    }

    @Override
    public Kind kind() {
        return Kind.REFUSED;
    }
}

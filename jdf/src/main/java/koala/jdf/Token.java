package koala.jdf;

/** One token of a job description, with where it starts. */
record Token(Kind kind, String text, SourcePosition at) {
    enum Kind {
        /** {@code (} */ OPEN,
        /** {@code )} */ CLOSE,
        /** {@code =} */ EQUALS,
        /** {@code &}, a request */ AND,
        /** {@code |}, Globus' disjunction, which KOALA does not take */ OR,
        /** {@code < > <= >= !=}: Globus' other relations, which KOALA does not take */ OPERATOR,
        /** an unquoted literal; a lone {@code +} starts a multi-request */ WORD,
        /** a quoted literal, {@code text} without the quotes */ STRING,
        /** the end of the file */ END
    }

    boolean is(Kind k) {
        return kind == k;
    }

    /** The multi-request operator: an unquoted {@code +} standing alone. */
    boolean isPlus() {
        return kind == Kind.WORD && text.equals("+");
    }

    /** How a message shows the token: {@code '('}, {@code 'count'}, {@code "a b"}, or the end of the file. */
    String shown() {
        return switch (kind) {
            case END -> "the end of the file";
            case STRING -> '"' + text.replace("\"", "\"\"") + '"';
            default -> "'" + text + "'";
        };
    }
}

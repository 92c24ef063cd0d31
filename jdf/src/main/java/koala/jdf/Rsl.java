package koala.jdf;

import java.util.List;

/** The syntax tree of a job description, before attribute names and values are checked. */
final class Rsl {
    private Rsl() {
    }

    /** One request {@code &(...)(...)}: the relations of one component; {@code at} is its '&amp;'. */
    record Request(SourcePosition at, List<Relation> relations) {
        Request {
            relations = List.copyOf(relations);
        }
    }

    /** {@code (name = values...)}; {@code at} is where the name starts. */
    record Relation(String name, SourcePosition at, List<Value> values) {
        Relation {
            values = List.copyOf(values);
        }
    }

    /** A value: a literal, or a parenthesised group of values such as {@code (NAME "value")}. */
    sealed interface Value permits Literal, Group {
        SourcePosition at();
    }

    /** A quoted or unquoted literal, quotes removed; {@code at} is its first character (the quote, when quoted). */
    record Literal(String text, SourcePosition at, boolean quoted) implements Value {
        Literal(String text, SourcePosition at) {
            this(text, at, false);
        }

        /**
         * Where the character at {@code offset} of the text stands in the file: for pointing at one word of
         * a value. The literal's own position when that cannot be told (a line break or doubled quote in it).
         */
        SourcePosition at(int offset) {
            if (text.indexOf('\n') >= 0 || (quoted && (text.indexOf('"') >= 0 || text.indexOf('\'') >= 0))) {
                return at;
            }
            return new SourcePosition(at.file(), at.line(), at.column() + (quoted ? 1 : 0) + offset);
        }
    }

    /** {@code ( values... )}; {@code at} is its '('. */
    record Group(List<Value> items, SourcePosition at) implements Value {
        Group {
            items = List.copyOf(items);
        }
    }
}

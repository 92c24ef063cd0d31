package koala.jdf;

import java.util.ArrayList;
import java.util.List;
import koala.jdf.Token.Kind;

/**
 * Splits a job description into tokens.
 *
 * <pre>
 * token    := '(' | ')' | '=' | '&amp;' | '|' | operator | string | word
 * operator := '&lt;' | '&gt;' | '!' , optionally followed by '='
 * string   := '"' ( any character but '"' | '""' )* '"'      -- "" stands for one "
 *           | "'" ( any character but "'" | "''" )* "'"      -- '' stands for one '
 * word     := one or more characters other than whitespace and ( ) = &amp; | &lt; &gt; ! " '
 * comment  := '(*' anything '*)'                             -- skipped, not nested
 * </pre>
 *
 * Whitespace (newlines included) separates tokens and is otherwise ignored; strings may span lines.
 * Lines and columns are 1-based; a tab is one column. An unterminated string or comment runs to the
 * end of the file: it is reported at its start, lexing stops there ({@link Result#truncated()}), an
 * unterminated string is kept as a token (so that its relation does not also seem to lack a value)
 * and later errors from that place on are dropped ({@link Problems#cutOff}) as knock-on effects.
 */
final class JdfLexer {
    private static final String SPECIAL = "()=&|<>!\"'";

    private final String text;
    private final Problems problems;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;
    private int column = 1;
    private SourcePosition lastEnd;
    private boolean truncated;

    /** The tokens, always ending with one {@link Kind#END}. */
    record Result(List<Token> tokens, boolean truncated) {
    }

    private JdfLexer(String text, Problems problems) {
        this.text = text;
        this.problems = problems;
        this.lastEnd = problems.at(1, 1);
    }

    static Result lex(String text, Problems problems) {
        JdfLexer lexer = new JdfLexer(text, problems);
        lexer.run();
        return new Result(List.copyOf(lexer.tokens), lexer.truncated);
    }

    private void run() {
        while (!truncated && skipBlanks()) {
            SourcePosition start = here();
            char c = text.charAt(pos);
            if (c == '(' && peek(1) == '*') {
                comment(start);
            } else if (c == '"' || c == '\'') {
                string(start, c);
            } else if (SPECIAL.indexOf(c) >= 0) {
                punctuation(start, c);
            } else {
                word(start);
            }
        }
        tokens.add(new Token(Kind.END, "", lastEnd));
    }

    /** Skips whitespace; false at the end of the text. */
    private boolean skipBlanks() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            advance();
        }
        return pos < text.length();
    }

    private void comment(SourcePosition start) {
        advance();
        advance();
        while (pos < text.length() && !(text.charAt(pos) == '*' && peek(1) == ')')) {
            advance();
        }
        if (pos >= text.length()) {
            problems.add(start, "unterminated comment: '(*' without '*)'");
            problems.cutOff(start);
            truncated = true;
            return;
        }
        advance();
        advance();
        lastEnd = here();
    }

    private void string(SourcePosition start, char quote) {
        advance();
        StringBuilder value = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos);
            advance();
            if (c != quote) {
                value.append(c);
            } else if (pos < text.length() && text.charAt(pos) == quote) {
                value.append(quote);
                advance();
            } else {
                emit(Kind.STRING, value.toString(), start);
                return;
            }
        }
        problems.add(start, "unterminated string: " + quote + " without a closing " + quote);
        problems.cutOff(start);
        emit(Kind.STRING, value.toString(), start);
        truncated = true;
    }

    private void punctuation(SourcePosition start, char c) {
        advance();
        Kind kind = switch (c) {
            case '(' -> Kind.OPEN;
            case ')' -> Kind.CLOSE;
            case '=' -> Kind.EQUALS;
            case '&' -> Kind.AND;
            case '|' -> Kind.OR;
            default -> Kind.OPERATOR;
        };
        String shown = String.valueOf(c);
        if (kind == Kind.OPERATOR && pos < text.length() && text.charAt(pos) == '=') {
            advance();
            shown += "=";
        }
        emit(kind, shown, start);
    }

    private void word(SourcePosition start) {
        int from = pos;
        while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))
                && SPECIAL.indexOf(text.charAt(pos)) < 0) {
            advance();
        }
        emit(Kind.WORD, text.substring(from, pos), start);
    }

    private void emit(Kind kind, String value, SourcePosition start) {
        tokens.add(new Token(kind, value, start));
        lastEnd = here();
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private void advance() {
        if (text.charAt(pos) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        pos++;
    }

    private SourcePosition here() {
        return problems.at(line, column);
    }
}

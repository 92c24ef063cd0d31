package koala.jdf;

import static koala.jdf.Jdf.errors;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Broken syntax: each error at its line and column, every one in the file, and no knock-on errors. */
class JdfSyntaxErrorsTest {
    @Test
    void anEmptyFileOrOneOfOnlyComments() {
        String message = "job.jdf:1:1: empty job description: expected '&' (one request) or '+' (a multi-request)";
        assertThat(errors("")).containsExactly(message);
        assertThat(errors("\n  (* nothing here *)\n\n")).containsExactly(message);
    }

    @Test
    void aJobStartsWithAndOrPlus() {
        assertThat(errors("(executable = /bin/true)(cont = 1)")).containsExactly(
                "job.jdf:1:1: expected '&' (one request) or '+' (a multi-request) at the start, found '('",
                "job.jdf:1:26: unknown attribute 'cont'; did you mean 'count'?");
        assertThat(errors("executable = /bin/true")).containsExactly(
                "job.jdf:1:1: expected '&' (one request) or '+' (a multi-request) at the start, found 'executable'");
    }

    @Test
    void aRelationLeftOpenIsReportedWhereTheNextRelationStarts() {
        assertThat(errors("""
                &(executable = /bin/true)
                  (count = 4
                  (maxWallTime = 10)
                """)).containsExactly("job.jdf:3:3: unbalanced '(' opened at 2:3");
    }

    @Test
    void aParenthesisLeftOpenAtTheEndIsReportedAfterTheLastToken() {
        assertThat(errors("&(executable = /bin/true)\n (count = 4\n\n")).containsExactly(
                "job.jdf:2:12: unbalanced '(' opened at 2:2");
        assertThat(errors("+( &(executable = /bin/true)(count = 4)\n")).containsExactly(
                "job.jdf:1:40: unbalanced '(' opened at 1:2");
        assertThat(errors("&(environment = (A 1)(B 2)")).containsExactly(
                "job.jdf:1:27: unbalanced '(' opened at 1:2");
    }

    @Test
    void aSubRequestLeftOpenIsReportedWhereTheNextOneStarts() {
        assertThat(errors("""
                +( &(executable = /bin/true)(count = 4)
                 ( &(executable = /bin/true)(count = 2) )
                """)).containsExactly("job.jdf:2:2: unbalanced '(' opened at 1:2");
    }

    @Test
    void anUnexpectedCloseParenthesis() {
        assertThat(errors("&(executable = /bin/true))(count = 2)")).containsExactly("job.jdf:1:26: unexpected ')'");
        assertThat(errors("+( &(executable = /bin/true) ))")).containsExactly("job.jdf:1:31: unexpected ')'");
    }

    @Test
    void aRelationWithoutEquals() {
        assertThat(errors("&(executable /bin/true)(count = 2)")).containsExactly(
                "job.jdf:1:14: executable: relation without '=': write (executable = value)");
        assertThat(errors("&(executable = /bin/true)(count >= 2)")).containsExactly(
                "job.jdf:1:33: count: KOALA takes only '=' relations, not '>='");
    }

    @Test
    void emptyRelationsAndMissingNames() {
        assertThat(errors("&(executable = /bin/true)()")).containsExactly("job.jdf:1:26: empty relation '()'");
        assertThat(errors("&(executable = /bin/true)(\"count\" = 2)")).containsExactly(
                "job.jdf:1:27: expected an attribute name after '(', found \"count\"");
    }

    @Test
    void anUnterminatedStringOrCommentRunsToTheEndAndIsReportedAtItsStart() {
        assertThat(errors("&(executable = /bin/sh)\n (arguments = \"-c\" \"echo hi)\n (count = 2)\n")).containsExactly(
                "job.jdf:2:20: unterminated string: \" without a closing \"");
        assertThat(errors("&(executable = /bin/sh)(* no end\n (count = 2)")).containsExactly(
                "job.jdf:1:24: unterminated comment: '(*' without '*)'");
        assertThat(errors("&(executable = 'x)")).containsExactly("job.jdf:1:16: unterminated string: ' without a closing '");
    }

    @Test
    void aRelationWithABadTokenInItsValueIsReportedOnce() {
        assertThat(errors("&(executable = /bin/true)(name = a=b)")).containsExactly(
                "job.jdf:1:35: name: unexpected '=' in the value; quote a value that contains it");
    }

    @Test
    void operatorsInsideAValueMustBeQuoted() {
        assertThat(errors("&(executable = /bin/sh)(arguments = -c a&b)")).containsExactly(
                "job.jdf:1:41: arguments: unexpected '&' in the value; quote a value that contains it");
        assertThat(errors("&(executable = /bin/sh)(arguments = x=1)")).containsExactly(
                "job.jdf:1:38: arguments: unexpected '=' in the value; quote a value that contains it");
    }

    @Test
    void severalComponentsNeedPlusNotASecondAnd() {
        assertThat(errors("&(executable = /bin/true)(count = 2)\n&(executable = /bin/true)(cnt = 2)")).containsExactly(
                "job.jdf:2:1: a second '&': a job has one request; several components are written "
                        + "+( &(...) )( &(...) )",
                "job.jdf:2:27: unknown attribute 'cnt'; did you mean 'count'?");
        assertThat(errors("&(executable = /bin/true)(&(count = 2))")).containsExactly(
                "job.jdf:1:26: a sub-request '( &(...) )' belongs in a multi-request, which starts with '+'");
    }

    @Test
    void aMultiRequestIsMadeOfSubRequests() {
        assertThat(errors("+")).containsExactly(
                "job.jdf:1:1: '+' needs sub-requests, one per component: +( &(...) )( &(...) )");
        assertThat(errors("+ (count = 2)(executable = /bin/true)")).containsExactly(
                "job.jdf:1:3: a relation outside any sub-request: write each component as ( &(...)(...) )");
        assertThat(errors("+ ( (count = 2) )")).containsExactly(
                "job.jdf:1:5: expected '&' after '(' to start a sub-request, found '('");
        assertThat(errors("+ ( &(executable = /bin/true) ) (count = 2) )")).containsExactly(
                "job.jdf:1:33: a relation outside any sub-request (a ')' too many before it?)",
                "job.jdf:1:45: unexpected ')'");
        assertThat(errors("+ ( &(executable = /bin/true) ) junk ( &(executable = /bin/true) )")).containsExactly(
                "job.jdf:1:33: expected '(' to start a sub-request '( &(...) )', found 'junk'");
    }

    @Test
    void junkBetweenRelationsIsSkippedToTheNextParenthesis() {
        assertThat(errors("&(executable = /bin/true) count = 2 (cont = 2)")).containsExactly(
                "job.jdf:1:27: expected '(' to start a relation, found 'count'",
                "job.jdf:1:38: unknown attribute 'cont'; did you mean 'count'?");
    }

    @Test
    void everyErrorInTheFileIsReportedInFileOrder() {
        assertThat(errors("""
                +( &(executable = /bin/true)(cont = 2)(count = two) )
                 ( &(executable = /bin/true)(count = 3
                 ( &(executable = true)(count = 1)(count = 2) )
                """)).containsExactly(
                "job.jdf:1:30: unknown attribute 'cont'; did you mean 'count'?",
                "job.jdf:1:48: count: 'two' is not a positive whole number",
                "job.jdf:3:2: unbalanced '(' opened at 2:29",
                "job.jdf:3:2: unbalanced '(' opened at 2:2",
                "job.jdf:3:19: executable: 'true' is not an absolute path",
                "job.jdf:3:36: count: given twice in one request (first at 3:25)");
    }
}

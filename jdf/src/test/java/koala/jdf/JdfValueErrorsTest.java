package koala.jdf;

import static koala.jdf.Jdf.errors;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Attribute names and values: the message names the attribute and quotes the value. */
class JdfValueErrorsTest {
    private static String job(String relations) {
        return "&(executable = /bin/true)" + relations;
    }

    @Test
    void unknownAttributesSuggestTheClosestNameWithinTwoEdits() {
        assertThat(errors(job("(cont = 4)"))).containsExactly(
                "job.jdf:1:27: unknown attribute 'cont'; did you mean 'count'?");
        assertThat(errors(job("(maxwalltim = 4)"))).containsExactly(
                "job.jdf:1:27: unknown attribute 'maxwalltim'; did you mean 'maxWallTime'?");
        assertThat(errors(job("(queue = all.q)"))).containsExactly("job.jdf:1:27: unknown attribute 'queue'");
    }

    @Test
    void countIsAPositiveWholeNumber() {
        assertThat(errors(job("(count = four)"))).containsExactly("job.jdf:1:35: count: 'four' is not a positive whole number");
        assertThat(errors(job("(count = 0)"))).containsExactly("job.jdf:1:35: count: '0' is not a positive whole number");
        assertThat(errors(job("(count = -2)"))).containsExactly("job.jdf:1:35: count: '-2' is not a positive whole number");
        assertThat(errors(job("(count = 2.5)"))).containsExactly("job.jdf:1:35: count: '2.5' is not a positive whole number");
        assertThat(errors(job("(count = 12345678901)"))).containsExactly("job.jdf:1:35: count: '12345678901' is too large");
    }

    @Test
    void oneValueAttributesTakeExactlyOne() {
        assertThat(errors(job("(count = )"))).containsExactly("job.jdf:1:27: count: no value");
        assertThat(errors(job("(name = my job)"))).containsExactly(
                "job.jdf:1:37: name: takes one value, found 2; quote a value that contains spaces");
        assertThat(errors("&(executable = /bin/sh -c date)")).containsExactly(
                "job.jdf:1:24: executable: takes one value, found 3; the program's arguments go in (arguments = ...)");
        assertThat(errors(job("(count = (4))"))).containsExactly(
                "job.jdf:1:35: count: unexpected '(' in the value; only environment takes (NAME value) pairs");
    }

    @Test
    void pathsAreAbsolute() {
        assertThat(errors("&(executable = hostname)(directory = tmp)(stdout = out.txt)(stderr = ~/err)")).containsExactly(
                "job.jdf:1:16: executable: 'hostname' is not an absolute path",
                "job.jdf:1:38: directory: 'tmp' is not an absolute path",
                "job.jdf:1:52: stdout: 'out.txt' is not an absolute path",
                "job.jdf:1:70: stderr: '~/err' is not an absolute path");
        assertThat(Values.absolutePath("${HOME}/out")).as("a variable the node fills in").isEqualTo("${HOME}/out");
    }

    @Test
    void maxWallTimeIsMinutesOrHoursMinutesSeconds() {
        String message = "is not minutes (a positive whole number) or HH:MM:SS";
        assertThat(errors(job("(maxWallTime = 1h)"))).containsExactly("job.jdf:1:41: maxWallTime: '1h' " + message);
        assertThat(errors(job("(maxWallTime = 0)"))).containsExactly("job.jdf:1:41: maxWallTime: '0' " + message);
        assertThat(errors(job("(maxWallTime = 1:60:00)"))).containsExactly("job.jdf:1:41: maxWallTime: '1:60:00' " + message);
        assertThat(errors(job("(maxWallTime = 00:00:00)"))).containsExactly("job.jdf:1:41: maxWallTime: '00:00:00' " + message);
    }

    @Test
    void environmentIsPairsOfVariableNameAndValue() {
        assertThat(errors(job("(environment = (A 1) (B-2 x) (A 3) C (D) (E (f g)))"))).containsExactly(
                "job.jdf:1:48: environment: 'B-2' is not a variable name (letters, digits and '_', not starting with a digit)",
                "job.jdf:1:55: environment: 'A' set twice (first at 1:41)",
                "job.jdf:1:61: environment: expected (NAME value) pairs, as in (environment = (HOME \"/tmp\"))",
                "job.jdf:1:63: environment: expected (NAME value) pairs, as in (environment = (HOME \"/tmp\"))",
                "job.jdf:1:67: environment: expected (NAME value) pairs, as in (environment = (HOME \"/tmp\"))");
    }

    @Test
    void namedValuesAreOneOfAFewWhateverTheirCase() {
        assertThat(errors(job("(jobType = elastic)(placement = best-fit)(priority = urgent)"))).containsExactly(
                "job.jdf:1:37: jobType: 'elastic' is not one of: rigid, flexible, framework",
                "job.jdf:1:58: placement: 'best-fit' is not one of: worst-fit, close-to-files, cluster-minimization, "
                        + "flexible-cluster-minimization",
                "job.jdf:1:79: priority: 'urgent' is not one of: high, low");
    }

    @Test
    void anAttributeGivenTwiceInOneRequest() {
        assertThat(errors(job("(count = 2)\n (COUNT = 2)"))).containsExactly(
                "job.jdf:2:3: count: given twice in one request (first at 1:27)");
    }

    @Test
    void jobLevelAttributesMustAgreeAcrossComponents() {
        assertThat(errors("""
                +( &(executable = /bin/true)(priority = high)(name = a) )
                 ( &(executable = /bin/true)(priority = HIGH) )
                 ( &(executable = /bin/true)(priority = low)(name = b) )
                """)).containsExactly(
                "job.jdf:3:41: priority: 'low' here but 'high' at 1:41; a job-level attribute must be the same in "
                        + "every component",
                "job.jdf:3:53: name: 'b' here but 'a' at 1:54; a job-level attribute must be the same in every "
                        + "component");
    }

    @Test
    void frameworkValuesAreNumbersInRange() {
        assertThat(errors("+(&(jobType = framework)(role = master)(provisioning = elastic)(fMax = 0)(tIdle = -1)"
                + "(tIdleFactor = 0)(uMin = 101)(uMax = x)(samplePeriod = 0)(orchestratorThreshold = 1e3))"
                + "(&(role = orchestrator)(role = boss))")).containsExactly(
                "job.jdf:1:56: provisioning: 'elastic' is not one of: static, ondemand, proactive, reserve, pool",
                "job.jdf:1:72: fMax: '0' is not a positive whole number",
                "job.jdf:1:83: tIdle: '-1' is not a whole number of seconds",
                "job.jdf:1:87: tIdleFactor: give tIdle (seconds) or tIdleFactor (times the grow time), not both",
                "job.jdf:1:101: tIdleFactor: '0' is not a positive number",
                "job.jdf:1:111: uMin: '101' is not a percentage (0 to 100)",
                "job.jdf:1:123: uMax: 'x' is not a percentage (0 to 100)",
                "job.jdf:1:141: samplePeriod: '0' is not a positive whole number of seconds",
                "job.jdf:1:168: orchestratorThreshold: '1e3' is not a positive number",
                "job.jdf:1:197: role: given twice in one request (first at 1:176)");
    }

    @Test
    void weightIsAPositiveNumberAndMinShareAWholeNumberOfNodes() {
        assertThat(errors("+(&(jobType = framework)(role = master)(weight = 0)(minShare = 2.5))(&(role = orchestrator))"))
                .containsExactly("job.jdf:1:50: weight: '0' is not a positive number",
                        "job.jdf:1:64: minShare: '2.5' is not a whole number of nodes");
    }

    @Test
    void rolesAndFrameworkAttributesBelongToFrameworkJobsOnly() {
        assertThat(errors(job("(role = master)(fMax = 4)(uMin = 10)"))).containsExactly(
                "job.jdf:1:27: role: only framework jobs (jobType = framework) have roles",
                "job.jdf:1:42: fMax: only framework jobs (jobType = framework) take this attribute",
                "job.jdf:1:52: uMin: only framework jobs (jobType = framework) take this attribute");
    }
}

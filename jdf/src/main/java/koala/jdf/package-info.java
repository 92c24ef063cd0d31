/**
 * Job description files: KOALA's dialect of Globus RSL, read by {@link koala.jdf.JdfParser}
 * into a {@link koala.jdf.JobDescription} of {@link koala.jdf.ComponentSpec}s and a
 * {@link koala.jdf.JobKind} (fixed, non-fixed, semi-fixed, flexible, framework); what each node of a
 * component needs on its host ({@code cores}, {@code memory}, {@code gpus}) is its
 * {@link koala.jdf.NodeResources}.
 *
 * <p>Reading goes in stages, each reporting to one list of problems so that every error of a file is
 * named at once as {@code file:line:column: message} ({@link koala.jdf.JdfError}, thrown
 * together in a {@link koala.jdf.JdfException}): the lexer, the RSL grammar, the attribute table
 * ({@code Attribute}, {@code Values}), the job's assembly and its checks, and the checks against the
 * grid's clusters when a {@link koala.jdf.ClusterCatalog} is given (and their hosts, as
 * {@link koala.jdf.HostCapacity}s, when known). The parser does no I/O.
 * The provisioning policies' names are not this module's: callers that run framework instances pass
 * them ({@code PolicyKind.shortNames()}). The format for users: {@code jdf-examples/README.md}.
 */
package koala.jdf;

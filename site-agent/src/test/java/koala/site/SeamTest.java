package koala.site;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The site agent drives its cluster's resource manager through the seam alone: SGE's vocabulary
 * (DRMAA, {@code koala.sge}) stays in {@code sge-adapter}, and the seam names no manager. The one
 * place that picks SGE is the process's entry point, {@link AgentMain}.
 */
@AnalyzeClasses(packages = {"koala.site", "koala.resourcemanager"}, importOptions = ImportOption.DoNotIncludeTests.class)
class SeamTest {
    @ArchTest
    static final ArchRule THE_AGENT_KNOWS_NO_MANAGER = noClasses().that().resideInAPackage("koala.site..")
            .and().doNotHaveSimpleName("AgentMain")
            .should().dependOnClassesThat().resideInAnyPackage("koala.sge..", "org.ggf.drmaa..")
            .because("a site agent works with any resource manager behind koala.resourcemanager.ResourceManager");

    @ArchTest
    static final ArchRule THE_SEAM_NAMES_NO_MANAGER = noClasses().that().resideInAPackage("koala.resourcemanager..")
            .should().dependOnClassesThat().resideInAnyPackage("koala.sge..", "org.ggf.drmaa..", "koala.site..")
            .because("adapters depend on the seam, not the other way round");
}

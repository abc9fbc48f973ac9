package io.msgx.runner;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Dependencies point inward only: adapters → pipeline-core → flight-domain; no adapter sees another; in the runner,
 * the CLI and the console meet only in the operator API.
 */
class ModuleDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importAll() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // the modules' test-jars (the store contracts, the test databases) are tests too, wherever Maven
                // resolves them from: a folder of test classes in one build, a packaged -tests.jar in another
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.msgx");
    }

    @Test
    void the_domain_sees_nothing_outside_itself() {
        noClasses().that().resideInAPackage("io.msgx.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("io.msgx.pipeline..", "io.msgx.adapter..", "io.msgx.runner..")
                .check(classes);
    }

    @Test
    void the_pipeline_knows_no_adapter_no_jdbc_and_no_kafka() {
        noClasses().that().resideInAPackage("io.msgx.pipeline..")
                .should().dependOnClassesThat().resideInAnyPackage("io.msgx.adapter..", "io.msgx.runner..",
                        "java.sql..", "javax.sql..", "org.apache.kafka..", "org.jooq..", "org.flywaydb..")
                .because("SQL and Kafka live with their adapters; pipeline-core holds ports and services")
                .check(classes);
    }

    /**
     * An adapter, the runner, or an embedding service plugs into pipeline-core only through its ports: the interfaces of
     * {@code io.msgx.pipeline.port}, the one place that lists them (issue 25, points 2 and 5; D-98). A sealed type's
     * {@code Cases} is no port: any caller implements it to say what it does with each kind (D-149).
     */
    @Test
    void outside_pipeline_core_only_the_ports_are_implemented() {
        noClasses().that().resideOutsideOfPackage("io.msgx.pipeline..")
                .should().implement(resideInAPackage("io.msgx.pipeline..").and(not(resideInAPackage("io.msgx.pipeline.port..")))
                        .and(not(simpleName("Cases"))))
                .because("every interface an adapter implements is a port, and every port is in io.msgx.pipeline.port"
                        + " (a sealed type's Cases, D-149, is implemented by its callers)")
                .check(classes);
    }

    @Test
    void no_adapter_sees_another() {
        for (var adapter : new String[]{"pg", "mysql", "oracle", "kafka"}) {
            noClasses().that().resideInAPackage("io.msgx.adapter." + adapter + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(otherAdapters(adapter))
                    .orShould().dependOnClassesThat().resideInAPackage("io.msgx.runner..")
                    .allowEmptyShould(true)
                    .check(classes);
        }
    }

    /**
     * The CLI and the console are two faces of one operator API (D-93): both call
     * {@code io.msgx.runner.operations.OperatorActions}, neither reaches into the other, and the API knows neither.
     */
    @Test
    void the_cli_and_the_console_share_only_the_operator_api() {
        noClasses().that().resideInAPackage("io.msgx.runner.cli..")
                .should().dependOnClassesThat().resideInAPackage("io.msgx.runner.console..")
                .because("an operator action goes through io.msgx.runner.operations.OperatorActions (D-93)")
                .check(classes);
        noClasses().that().resideInAPackage("io.msgx.runner.operations..")
                .should().dependOnClassesThat().resideInAnyPackage("io.msgx.runner.cli..", "io.msgx.runner.console..")
                .because("the operator API serves both faces and knows neither (D-93)")
                .check(classes);
    }

    /**
     * The runtime wiring lives in packages named for each part (D-148): the store kinds and pools, the lease and the
     * standby loop, the job schedule, the start-up checks, the build. {@code io.msgx.runner.embed} is the embedding API
     * on top of them, and none of them reaches back into it.
     */
    @Test
    void the_runtime_parts_do_not_reach_back_into_the_embedding_api() {
        noClasses().that().resideInAnyPackage("io.msgx.runner.store..", "io.msgx.runner.standby..",
                        "io.msgx.runner.jobs..", "io.msgx.runner.startup..", "io.msgx.runner.build..")
                .should().dependOnClassesThat().resideInAPackage("io.msgx.runner.embed..")
                .because("MsgExchange wires the parts; a part that needed MsgExchange would belong in it (D-148)")
                .check(classes);
    }

    private static String[] otherAdapters(String adapter) {
        return java.util.stream.Stream.of("pg", "mysql", "oracle", "kafka")
                .filter(a -> !a.equals(adapter))
                .map(a -> "io.msgx.adapter." + a + "..")
                .toArray(String[]::new);
    }
}

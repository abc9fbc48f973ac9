package io.msgx.runner;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Dependencies point inward only: adapters → pipeline-core → flight-domain; no adapter sees another. */
class ModuleDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importAll() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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

    private static String[] otherAdapters(String adapter) {
        return java.util.stream.Stream.of("pg", "mysql", "oracle", "kafka")
                .filter(a -> !a.equals(adapter))
                .map(a -> "io.msgx.adapter." + a + "..")
                .toArray(String[]::new);
    }
}

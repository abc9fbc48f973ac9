package io.msgx.domain;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The flight domain is pure: JDK only, no I/O, no framework, no clock reads. Time and state come in as
 * arguments; the caller persists what the engine decides.
 */
class DomainPurityTest {

    private static JavaClasses domain;

    @BeforeAll
    static void importDomain() {
        domain = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.msgx.domain");
    }

    @Test
    void depends_on_the_jdk_and_itself_only() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.msgx.domain..", "java.lang..", "java.util..", "java.time..")
                .because("flight-domain is JDK-only and does no I/O: no java.io, java.nio, java.net, java.sql")
                .check(domain);
    }

    @Test
    void reads_no_clock() {
        noClasses().should().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(java.time.LocalDate.class, "now")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callMethod(java.time.LocalTime.class, "now")
                .orShould().callMethod(java.time.ZonedDateTime.class, "now")
                .orShould().callMethod(java.time.OffsetDateTime.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().dependOnClassesThat().areAssignableTo(java.time.Clock.class)
                .because("every time a decision needs comes in as an argument")
                .check(domain);
    }

    @Test
    void holds_no_threads_or_randomness() {
        noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("java.util.concurrent..", "java.lang.reflect..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.Random.class)
                .because("the engine is deterministic: same state and message, same decision")
                .check(domain);
    }
}

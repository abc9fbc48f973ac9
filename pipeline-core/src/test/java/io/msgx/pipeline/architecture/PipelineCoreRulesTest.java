package io.msgx.pipeline.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * What the architecture guide asks of pipeline-core, checked on its classes (issue 25, point 5; D-91): it reads time
 * only from the {@link Clock} it is given, it starts no thread of its own, and its ports are the interfaces of one
 * package. Threads belong to the runner, which
 * injects the executors the services use (the pump's read-ahead, the dispatcher's confirmations) and stops them.
 */
class PipelineCoreRulesTest {

    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.msgx.pipeline");
    }

    @Test
    void reads_time_only_from_the_injected_clock() {
        noClasses().should().callMethod(Instant.class, "now")
                .orShould().callMethod(LocalDate.class, "now")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(LocalTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().callMethod(OffsetDateTime.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(Clock.class, "systemUTC")
                .orShould().callMethod(Clock.class, "systemDefaultZone")
                .because("every time read goes through the Clock the service was built with, so tests set the time")
                .check(core);
    }

    @Test
    void creates_no_thread_and_no_executor() {
        noClasses().should().callConstructorWhere(target(owner(assignableTo(Thread.class))))
                .orShould().callConstructorWhere(target(owner(assignableTo(Executor.class))))
                .orShould().callConstructorWhere(target(owner(assignableTo(Timer.class))))
                .orShould().callMethodWhere(target(owner(type(Executors.class))))
                .orShould().callMethodWhere(target(owner(type(ForkJoinPool.class))))
                .orShould().callMethod(CompletableFuture.class, "supplyAsync", Supplier.class)
                .orShould().callMethod(CompletableFuture.class, "runAsync", Runnable.class)
                .because("threads are the runner's: it injects an executor (the dispatcher's confirmations, the pump's "
                        + "read-ahead) and stops it; the one-argument async calls would use the JVM's common pool")
                .check(core);
    }

    /**
     * The ports package holds the ports and nothing else: interfaces (and the types nested in them), so what an adapter
     * must implement is listed in one place (issue 25, points 2 and 5; D-98).
     */
    @Test
    void the_ports_package_holds_only_interfaces() {
        classes().that().resideInAPackage("io.msgx.pipeline.port..").and().areTopLevelClasses()
                .should().beInterfaces()
                .because("a port is an interface an adapter implements; values and services live beside their users")
                .check(core);
    }
}

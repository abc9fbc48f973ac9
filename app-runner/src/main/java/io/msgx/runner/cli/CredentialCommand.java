package io.msgx.runner.cli;

import io.msgx.runner.http.Credential;
import io.msgx.runner.http.Credentials;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

/** Credentials of the HTTP side (D-145): made here, kept by the site in {@code msgx.http.credentials-file}. */
@Command(name = "credential", description = "Make credentials for the HTTP side's credentials file.",
        subcommands = {CredentialCommand.New.class, CredentialCommand.Hash.class})
final class CredentialCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 2;
    }

    @Command(name = "new", description = {"A new credential: a random secret (printed once, to give to its client)",
            "and the line to add to the credentials file, which holds only the secret's SHA-256.",
            "The running service reads the file again within seconds: no restart."})
    static final class New implements Callable<Integer> {

        @Option(names = "--name", required = true, description = "Who uses it: the name audit lines and rows carry.")
        String name;

        @Option(names = "--role", required = true, split = ",",
                description = "reader, injector, operator, metrics (several: comma-separated or repeated).")
        List<String> roles;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            var secret = Credential.newSecret();
            var line = name + " " + String.join(",", roles) + " " + Credential.hashOf(secret);
            try {
                Credentials.parse(List.of(line), "the new credential");
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return 2;
            }
            var out = spec.commandLine().getOut();
            out.println("secret (give it to the client; it is shown only now):");
            out.println("  " + secret);
            out.println("line for the credentials file (msgx.http.credentials-file):");
            out.println(line);
            return 0;
        }
    }

    @Command(name = "hash", description = {"The credentials-file hash of a secret read from standard input",
            "(one line), for a secret made elsewhere."})
    static final class Hash implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            var secret = in.readLine();
            if (secret == null || secret.strip().length() < 16) {
                spec.commandLine().getErr().println("Give a secret of at least 16 characters on standard input.");
                return 2;
            }
            spec.commandLine().getOut().println(Credential.hashOf(secret));
            return 0;
        }
    }
}

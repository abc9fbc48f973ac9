package io.msgx.adapter.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The versioned schema scripts {@code V<n>__<description>.sql} of a classpath folder, in the order of their version
 * <b>numbers</b> (as text, {@code V10} would sort before {@code V2}). Both stores name their scripts so (Flyway's
 * naming on PostgreSQL, {@code OracleSchema}'s runner on Oracle); from version 18 on, each schema change is a pair of
 * twin scripts with the same version and description in both folders (D-147).
 *
 * <p>{@link #list} reads the folder from a directory or from a jar (the executable jar included), so the Oracle runner
 * derives its scripts from what the build packed instead of a list kept by hand.
 */
public final class VersionedScripts {

    /** {@code V<n>__<description>.sql}: a whole version number, two underscores, a description. */
    private static final Pattern NAME = Pattern.compile("V([1-9][0-9]{0,8})__([A-Za-z0-9_]+)\\.sql");

    private VersionedScripts() {
    }

    /**
     * One script.
     *
     * @param version     the number after {@code V}
     * @param description the part between {@code __} and {@code .sql}, as written (underscores kept)
     * @param name        the file name
     */
    public record Script(int version, String description, String name) {

        /** The description as a person reads it (and Flyway records it): underscores as spaces. */
        public String readableDescription() {
            return description.replace('_', ' ');
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The script named {@code name}.
     *
     * @throws IllegalArgumentException when the name is not {@code V<n>__<description>.sql}
     */
    public static Script parse(String name) {
        var matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a versioned script's name: write it "
                    + "V<n>__<description>.sql (a whole number without leading zeros, two underscores, letters, digits"
                    + " and underscores)");
        }
        return new Script(Integer.parseInt(matcher.group(1)), matcher.group(2), name);
    }

    /**
     * The versioned scripts among {@code names} (files not starting with {@code V}, such as {@code schema_version.sql},
     * are not versioned scripts and are left out), in increasing version order.
     *
     * @throws IllegalArgumentException when a name starting with {@code V} is malformed, or two scripts share a
     *                                  version (naming both)
     */
    public static List<Script> inOrder(Collection<String> names) {
        var scripts = names.stream().filter(name -> name.startsWith("V")).map(VersionedScripts::parse)
                .sorted(Comparator.comparingInt(Script::version)).toList();
        for (int i = 1; i < scripts.size(); i++) {
            if (scripts.get(i).version() == scripts.get(i - 1).version()) {
                throw new IllegalArgumentException("two scripts have version " + scripts.get(i).version() + ": "
                        + scripts.get(i - 1).name() + " and " + scripts.get(i).name()
                        + "; give the newer one the next free version");
            }
        }
        return scripts;
    }

    /**
     * The names of the files in {@code folder} of the classpath of {@code loader}, found beside {@code anchor} (a file
     * every copy of the folder has: a jar need not hold an entry for the folder itself, only for its files), from
     * directories and jars alike; sorted as text.
     *
     * @throws IllegalStateException when no copy of the folder is on the class path, or one is where it cannot be
     *                               listed
     */
    public static List<String> list(ClassLoader loader, String folder, String anchor) {
        var names = new TreeSet<String>();
        try {
            var anchors = loader.getResources(folder + "/" + anchor);
            while (anchors.hasMoreElements()) {
                names.addAll(siblings(anchors.nextElement()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder + " on the class path", e);
        }
        if (names.isEmpty()) {
            throw new IllegalStateException(folder + "/" + anchor + " is not on the class path: the jar that holds "
                    + folder + " is missing or incomplete");
        }
        return new ArrayList<>(names);
    }

    private static List<String> siblings(URL anchor) throws IOException {
        switch (anchor.getProtocol()) {
            case "file" -> {
                Path directory;
                try {
                    directory = Path.of(anchor.toURI()).getParent();
                } catch (URISyntaxException e) {
                    throw new IllegalStateException("cannot read the folder of " + anchor, e);
                }
                try (Stream<Path> files = Files.list(directory)) {
                    return files.filter(Files::isRegularFile).map(path -> path.getFileName().toString()).toList();
                }
            }
            case "jar" -> {
                var connection = (JarURLConnection) anchor.openConnection();
                connection.setUseCaches(false);
                var entry = connection.getEntryName();
                var prefix = entry.substring(0, entry.lastIndexOf('/') + 1);
                try (var jar = connection.getJarFile()) {
                    return jar.stream().filter(jarEntry -> !jarEntry.isDirectory())
                            .map(jarEntry -> jarEntry.getName())
                            .filter(name -> name.startsWith(prefix) && name.indexOf('/', prefix.length()) < 0)
                            .map(name -> name.substring(prefix.length())).toList();
                }
            }
            default -> throw new IllegalStateException("cannot list the folder of " + anchor + ": only directories "
                    + "and jars (file: and jar: URLs) are read; put the adapter's jar on an ordinary class path");
        }
    }
}

package io.msgx.runner.config;

import java.util.regex.Pattern;

/**
 * A JDBC URL as it may be shown in a log line, a report or an error: a password written into the URL replaced by
 * {@value #MASK}. Drivers accept passwords there ({@code ?password=} on PostgreSQL and Connector/J,
 * {@code user:password@host} on Connector/J, {@code user/password@} on Oracle thin), and operators do put them
 * there, so a URL is never printed as given.
 */
public final class JdbcUrlMask {

    public static final String MASK = "***";

    /** {@code ?password=}, {@code &sslpassword=}, {@code &trustCertificateKeyStorePassword=} ...: up to the next {@code &}. */
    private static final Pattern PASSWORD_PARAMETER =
            Pattern.compile("(?i)([?&]\\s*[\\w.-]*(?:password|pwd)\\s*=)[^&]*");
    /** {@code ;password=} or {@code ;pwd=} of the drivers that separate properties by semicolons. */
    private static final Pattern PASSWORD_PROPERTY =
            Pattern.compile("(?i)(;\\s*[\\w.-]*(?:password|pwd)\\s*=)[^;]*");
    /** Connector/J's address-equals form: {@code (host=db,password=...)}. */
    private static final Pattern PASSWORD_IN_ADDRESS =
            Pattern.compile("(?i)([(,]\\s*[\\w.-]*(?:password|pwd)\\s*=)[^,)]*");
    /** {@code //user:password@host} */
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:?;]*:)[^@]*@");
    /** {@code jdbc:oracle:thin:user/password@host} */
    private static final Pattern ORACLE_LOGON = Pattern.compile("(?i)(jdbc:oracle:[a-z0-9]+:[^/@:]+/)[^@]*@");

    /** The logon part of {@code jdbc:oracle:thin:user/password@host}: {@code user/password}. */
    private static final Pattern ORACLE_LOGON_PART = Pattern.compile("(?i)^(jdbc:oracle:[a-z0-9]+:)[^/@:]+/[^@]*@");

    private JdbcUrlMask() {
    }

    /**
     * An Oracle URL without the user and password written into it ({@code jdbc:oracle:thin:user/password@host} becomes
     * {@code jdbc:oracle:thin:@host}), so that a logon given apart (the self-test's scratch user) is the one used.
     */
    public static String withoutOracleLogon(String url) {
        return ORACLE_LOGON_PART.matcher(url).replaceFirst("$1@");
    }

    /** The URL with every password in it masked; null stays null. */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        var masked = PASSWORD_PARAMETER.matcher(url).replaceAll("$1" + MASK);
        masked = PASSWORD_PROPERTY.matcher(masked).replaceAll("$1" + MASK);
        masked = PASSWORD_IN_ADDRESS.matcher(masked).replaceAll("$1" + MASK);
        masked = USER_INFO.matcher(masked).replaceAll("$1" + MASK + "@");
        return ORACLE_LOGON.matcher(masked).replaceAll("$1" + MASK + "@");
    }
}

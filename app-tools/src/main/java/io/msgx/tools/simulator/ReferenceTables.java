package io.msgx.tools.simulator;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The airlines, airports, aircraft types and codes a simulated day draws from. Fixed tables, so a seed alone
 * decides a day.
 */
final class ReferenceTables {

    /** An airline: its code, its registration prefix, whether it is a home carrier (flies domestic routes). */
    record Airline(String code, String registrationPrefix, boolean homeCarrier) {
    }

    /** A destination: its code and flight nature ({@code FLIN}: D domestic, R regional, I international). */
    record Airport(String code, String nature, int blockMinutes) {
    }

    /** An aircraft type ({@code ACFT}) with its seats ({@code MAXP}) and whether it is a wide body. */
    record AircraftType(String code, int seats, boolean wideBody) {
    }

    /** An IATA delay code with its description. */
    record DelayReason(String code, String description) {
    }

    static final List<Airline> AIRLINES = List.of(
            new Airline("CA", "B", true), new Airline("MU", "B", true), new Airline("CZ", "B", true),
            new Airline("HU", "B", true), new Airline("3U", "B", true), new Airline("ZH", "B", true),
            new Airline("FM", "B", true), new Airline("MF", "B", true), new Airline("HO", "B", true),
            new Airline("9C", "B", true), new Airline("SC", "B", true), new Airline("KN", "B", true),
            new Airline("SQ", "9V-", false), new Airline("CX", "B-H", false), new Airline("KE", "HL", false),
            new Airline("NH", "JA", false), new Airline("LH", "D-A", false), new Airline("AF", "F-G", false),
            new Airline("EK", "A6-", false), new Airline("QR", "A7-", false), new Airline("BA", "G-", false),
            new Airline("TG", "HS-", false));

    static final List<Airport> DOMESTIC = List.of(
            new Airport("PEK", "D", 135), new Airport("PKX", "D", 140), new Airport("CAN", "D", 140),
            new Airport("SZX", "D", 145), new Airport("CTU", "D", 190), new Airport("TFU", "D", 190),
            new Airport("KMG", "D", 205), new Airport("XIY", "D", 150), new Airport("CKG", "D", 165),
            new Airport("WUH", "D", 100), new Airport("CSX", "D", 110), new Airport("XMN", "D", 100),
            new Airport("TAO", "D", 95), new Airport("DLC", "D", 110), new Airport("SYX", "D", 200),
            new Airport("HAK", "D", 175), new Airport("URC", "D", 330), new Airport("HRB", "D", 180),
            new Airport("SHE", "D", 140), new Airport("TSN", "D", 120));

    static final List<Airport> ABROAD = List.of(
            new Airport("HKG", "R", 150), new Airport("MFM", "R", 145), new Airport("TPE", "R", 110),
            new Airport("ICN", "I", 110), new Airport("NRT", "I", 180), new Airport("KIX", "I", 140),
            new Airport("SIN", "I", 330), new Airport("BKK", "I", 270), new Airport("FRA", "I", 720),
            new Airport("CDG", "I", 740), new Airport("LHR", "I", 750), new Airport("DXB", "I", 540),
            new Airport("DOH", "I", 570), new Airport("LAX", "I", 690));

    static final List<AircraftType> NARROW_BODIES = List.of(
            new AircraftType("320", 158, false), new AircraftType("321", 185, false),
            new AircraftType("32N", 186, false), new AircraftType("319", 128, false),
            new AircraftType("738", 168, false), new AircraftType("7M8", 176, false));

    static final List<AircraftType> WIDE_BODIES = List.of(
            new AircraftType("333", 301, true), new AircraftType("332", 265, true),
            new AircraftType("359", 312, true), new AircraftType("789", 280, true),
            new AircraftType("77W", 348, true));

    static final List<DelayReason> DELAY_REASONS = List.of(
            new DelayReason("93", "LATE INBOUND AIRCRAFT"), new DelayReason("81", "ATFM DUE TO ATC EN-ROUTE DEMAND"),
            new DelayReason("71", "WEATHER AT DEPARTURE STATION"), new DelayReason("41", "AIRCRAFT DEFECTS"),
            new DelayReason("15", "BOARDING DISCREPANCIES"), new DelayReason("63", "LATE CREW BOARDING"),
            new DelayReason("18", "BAGGAGE PROCESSING"), new DelayReason("87", "AIRPORT FACILITIES"));

    static final List<String> HANDLING_AGENTS = List.of("EAS", "SAS", "CAH", "MUG", "PSA", "HAS");

    static final List<String> RUNWAYS = List.of("16L", "16R", "17L", "17R", "34L", "34R", "35L", "35R");

    static final List<String> SERVICE_CODES = List.of("WCHR", "UMNR", "MEDA", "CATR", "PETC", "DEPA");

    static final List<String> VIP_RANKS = List.of("MINISTER", "GOVERNOR", "AMBASSADOR", "CEO", "MAYOR");

    static final List<String> SURNAMES = List.of("ZHANG", "WANG", "LI", "LIU", "CHEN", "YANG", "HUANG", "ZHAO",
            "SMITH", "MUELLER", "DUBOIS", "TANAKA", "KIM");

    static final List<String> REMARKS = List.of("PLEASE PROCEED TO GATE EARLY", "SECURITY CHECK EXTENDED",
            "PAX WITH REDUCED MOBILITY ON BOARD", "GATE MAY CHANGE", "TRANSFER PAX PLEASE CONTACT DESK");

    private ReferenceTables() {
    }

    static <T> T pick(SplittableRandom random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}

/// The names the Bluetooth SIG assigns to numbers found in AD data: company identifiers
/// (Manufacturer Specific Data, AD-9), 16-bit UUIDs (service lists and Service Data, AD-8),
/// appearance values and AD types. ``source`` says which copy of the SIG's lists the tables
/// are; `Scripts/assigned-numbers.py` refreshes them.
public enum AssignedNumbers {
    /// The company's name for a company identifier (0x004C: "Apple, Inc."), or nil when the
    /// identifier is not assigned in these tables.
    public static func companyName(_ id: UInt16) -> String? { companies[id] }

    /// The name of a 16-bit UUID (0xFEAA: "Google LLC"; 0x180F: "Battery Service"), or nil.
    public static func uuid16Name(_ uuid: UInt16) -> String? { uuids16[uuid] }

    /// The name of an appearance value (0x0040: "Generic Phone"), or nil.
    public static func appearanceName(_ value: UInt16) -> String? { appearances[value] }

    /// The name of an AD type (0x09: "Device Name"), or nil.
    public static func adTypeName(_ type: UInt8) -> String? { adTypes[UInt16(type)] }

    /// Every company identifier with its name.
    public static let companies = table(companiesText)
    /// Every 16-bit UUID with its name (services, members, characteristics, units, …).
    public static let uuids16 = table(uuids16Text)
    /// Every appearance value with its name.
    public static let appearances = table(appearancesText)
    /// Every AD type with its name (the keys fit in 8 bits).
    public static let adTypes = table(adTypesText)

    /// Reads `NUMBER<TAB>NAME` lines.
    static func table(_ text: String) -> [UInt16: String] {
        var names: [UInt16: String] = [:]
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t"), let number = UInt16(line[..<tab]) else { continue }
            names[number] = String(line[line.index(after: tab)...])
        }
        return names
    }
}

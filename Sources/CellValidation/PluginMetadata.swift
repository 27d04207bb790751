import CCellHostABI
import CellIO

/// What a plugin says about itself in its `.cellhost_metadata` ELF section (plugin.h,
/// CELLHOST_METADATA): read from the file alone, so no code of the plugin runs. The record is
/// one NUL-terminated JSON object whose first member, "cellhost-metadata", is the format version.
public struct PluginMetadata: Sendable, Equatable {
    /// The section's name: plugin.h's CELLHOST_METADATA_SECTION.
    public static let sectionName = CELLHOST_METADATA_SECTION
    /// The format version this host reads (plugin.h's CELLHOST_METADATA_FORMAT); a record of a
    /// newer one is read when it still has every member this version has.
    public static let formatVersion = Int64(CELLHOST_METADATA_FORMAT)
    static let magic = Array("{\"cellhost-metadata\":".utf8)

    public var formatVersion: Int64
    public var id: String
    public var name: String
    public var version: String
    public var vendor: String
    /// nil when the plugin gives none (an empty string in the section).
    public var description: String?
    /// The ABI the plugin was built for, "major.minor".
    public var abi: String
    public var typeIdentifiers: [String]

    /// Why a file's metadata could not be read; `description` names the file.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable {
            /// The file is missing, unreadable, not ELF, 32-bit, big-endian or corrupt.
            case unreadableFile
            /// A readable ELF file without the section: built with an SDK older than the
            /// metadata macros, or without CELLHOST_METADATA.
            case noSection
            /// The section is there but does not hold a valid record.
            case malformedRecord
        }
        public var path: String
        public var kind: Kind
        public var problem: String
        public var description: String { "\(path): \(problem)" }
    }

    /// Reads the section of the file at `path` without loading it.
    public static func read(path: String) throws(ReadError) -> PluginMetadata {
        let bytes: [UInt8]?
        do {
            let file = try ELFSectionReader(path: path)
            bytes = try file.section(named: sectionName)
        } catch {
            throw ReadError(path: path, kind: .unreadableFile, problem: error.text)
        }
        guard let bytes else {
            throw ReadError(path: path, kind: .noSection,
                            problem: "has no \(sectionName) section, so nothing about it can be read without loading it "
                                + "(built with an SDK older than CELLHOST_METADATA, or without declaring it); "
                                + "`cellhost inspect \(path)` without --no-load loads it and reads its descriptor")
        }
        do {
            return try parse(section: bytes)
        } catch {
            throw ReadError(path: path, kind: .malformedRecord, problem: "its \(sectionName) section \(error.text)")
        }
    }

    /// Why a section's bytes are not a record; `text` completes "its section …".
    struct RecordProblem: Error { var text: String }

    /// The record in a section's bytes: the magic, JSON up to the first NUL, then only NUL padding.
    static func parse(section bytes: [UInt8]) throws(RecordProblem) -> PluginMetadata {
        guard bytes.starts(with: magic) else {
            throw RecordProblem(text: "does not start with {\"cellhost-metadata\": (\(bytes.count) bytes)")
        }
        guard let end = bytes.firstIndex(of: 0) else {
            throw RecordProblem(text: "is not NUL-terminated (truncated?)")
        }
        guard bytes[end...].allSatisfy({ $0 == 0 }) else {
            throw RecordProblem(text: "holds more than one record (was CELLHOST_METADATA written twice?)")
        }
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            throw RecordProblem(text: "is not valid UTF-8")
        }
        let json: JSON
        do { json = try JSON.parse(text) } catch { throw RecordProblem(text: "is not valid JSON: \(error)") }
        guard let format = json["cellhost-metadata"]?.intValue, format >= 1 else {
            throw RecordProblem(text: "has no positive integer format version")
        }
        let hint = format > formatVersion ? " (format version \(format) is newer than this host reads, \(formatVersion))" : ""
        func string(_ key: String) throws(RecordProblem) -> String {
            guard let value = json[key]?.stringValue else { throw RecordProblem(text: "has no string \"\(key)\"\(hint)") }
            return value
        }
        let id = try string("id"), name = try string("name"), version = try string("version")
        let vendor = try string("vendor"), abi = try string("abi")
        let types = json["types"]?.arrayValue?.compactMap(\.stringValue)
        guard let types, types.count == json["types"]?.arrayValue?.count else {
            throw RecordProblem(text: "has no \"types\" array of strings\(hint)")
        }
        let description = json["description"]?.stringValue
        return PluginMetadata(formatVersion: format, id: id, name: name, version: version, vendor: vendor,
                              description: description?.isEmpty == false ? description : nil, abi: abi, typeIdentifiers: types)
    }
}

import CellIO
import CellProcess

extension RunOptions {
    /// The run worker's preparation, before any plugin code runs: every path made absolute
    /// (so a plugin's `chdir` cannot redirect the stream, the frames or the contact sheet),
    /// the output folders made (Landlock allows only folders that exist), then the sandbox
    /// entered with the plugins and the stream readable and the output folders writable.
    public func enteringWorkerSandbox() throws -> RunOptions {
        var resolved = self
        resolved.plugins = plugins.map(WorkerSandbox.absolute)
        if let events, events != "-" { resolved.events = WorkerSandbox.absolute(events) }
        var writable: [String] = []
        if let frames = framesDirectory {
            try makeDirectories(frames)
            resolved.framesDirectory = WorkerSandbox.absolute(frames)
            writable.append(resolved.framesDirectory!)
        }
        if let sheet = contactSheet {
            let absolute = WorkerSandbox.absolute(sheet)
            let folder = String(absolute[..<absolute.lastIndex(of: "/")!])
            try makeDirectories(folder.isEmpty ? "/" : folder)
            resolved.contactSheet = absolute
            writable.append(folder.isEmpty ? "/" : folder)
            if framesDirectory == nil, resolved.scratchDirectory == nil {
                resolved.scratchDirectory = RunSession.scratchDirectory()
                writable += resolved.scratchDirectory.map { [$0] } ?? []
            }
        }
        // The sample plugins next to the executable are readable as the executable's folder.
        let readable = resolved.plugins + (resolved.events.map { $0 == "-" ? [] : [$0] } ?? [])
        try WorkerSandbox.enter(reading: readable, writing: writable)
        return resolved
    }
}

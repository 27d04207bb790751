import CellIO
import CellProcess
import CellRender
import Glibc

extension RunOptions {
    /// The run worker's preparation, before any plugin code runs: the stream, frames and contact
    /// sheet paths made absolute (so a plugin's `chdir` cannot redirect them; the stream keeps
    /// its spelling in messages, and plugins are loaded from the folder the run started in),
    /// the output folders made (Landlock allows only folders that exist), then the sandbox
    /// entered with the plugins and the stream readable and the output folders writable, after
    /// fontconfig has loaded (`FontconfigLoading`).
    public func enteringWorkerSandbox() throws -> RunOptions {
        var resolved = self
        if let events, events != "-" {
            resolved.events = WorkerSandbox.absolute(events)
            resolved.sourceLabel = sourceName
        }
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
        let readable = plugins.map(WorkerSandbox.absolute) + (resolved.events.map { $0 == "-" ? [] : [$0] } ?? [])
        // The host's output writes carry a mark the sandbox lets through (`HostWriteMark`): any
        // descriptor of this process works; the first output folder's is at hand.
        let mark = writable.first.map { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } ?? -1
        if mark >= 0 { HostWriteMark.set(mark) }
        FontconfigLoading.load()
        try WorkerSandbox.enter(reading: readable, writing: writable, hostWrites: mark)
        return resolved
    }
}

@testable import CellProcess
import Glibc
import Testing

/// How the supervisor reads the paths of the worker's notified calls, and how it words a refusal.
@Suite struct SandboxListenerTests {
    /// A folder's name that another folder's name starts with is not inside it.
    @Test func insideMeansBelowTheFolderNotBesideIt() {
        #expect(SandboxListener.isInside("/tmp/out/frames/a.png", "/tmp/out"))
        #expect(SandboxListener.isInside("/tmp/out", "/tmp/out"))
        #expect(!SandboxListener.isInside("/tmp/outside/a.png", "/tmp/out"))
        #expect(SandboxListener.isInside("/dev/null", "/dev/null"))
        #expect(!SandboxListener.isInside("/dev/null2", "/dev/null"))
    }

    /// A relative path is resolved against the calling process's working directory, and `..`
    /// leaves the folder it names.
    @Test func relativePathsAreResolvedInTheCallersFolder() {
        let cwd = WorkerSandbox.absolute(".")
        #expect(SandboxListener.resolve("note.txt", folder: AT_FDCWD, pid: getpid()) == cwd + "/note.txt")
        let parent = WorkerSandbox.absolute("..")
        #expect(SandboxListener.resolve("../note.txt", folder: AT_FDCWD, pid: getpid()) == (parent == "/" ? "" : parent) + "/note.txt")
        let root = open("/", O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        #expect(SandboxListener.resolve("etc/x", folder: root, pid: getpid()) == "/etc/x")
        #expect(SandboxListener.resolve("/tmp/../etc/x", folder: root, pid: getpid()) == "/etc/x")
    }

    /// /dev/stdout and /proc/self are the worker's, not the supervisor's.
    @Test func theWorkersNamesForItselfAreItsOwn() {
        #expect(SandboxListener.supervisorsView(of: "/dev/stderr", pid: 42) == "/proc/42/fd/2")
        #expect(SandboxListener.supervisorsView(of: "/proc/self/cwd/x", pid: 42) == "/proc/42/cwd/x")
        #expect(SandboxListener.supervisorsView(of: "/dev/fd/7", pid: 42) == "/proc/42/fd/7")
        #expect(SandboxListener.supervisorsView(of: "/dev/tty", pid: 42) == "/dev/tty")
        // Through its working directory, a path names the file it leads to.
        let cwd = WorkerSandbox.absolute(".")
        let seen = SandboxListener.supervisorsView(of: "/proc/self/cwd/note.txt", pid: getpid())
        #expect(SandboxListener.resolve(seen, folder: AT_FDCWD, pid: getpid()) == cwd + "/note.txt")
    }

    /// The path comes from the plugin: control characters are escaped and it is cut short.
    @Test func aRefusalNamesWhatWasTriedAndItsPathBounded() {
        #expect(SandboxRefusal.run("/bin/sh").sentence(memoryLimit: nil) == "the plugin tried to run /bin/sh")
        #expect(SandboxRefusal.write("/home/u/x").sentence(memoryLimit: nil) == "the plugin tried to write /home/u/x")
        #expect(SandboxRefusal.run(nil).sentence(memoryLimit: nil) == "the plugin tried to run a program")
        #expect(SandboxRefusal.write("/tmp/a\nb").sentence(memoryLimit: nil) == "the plugin tried to write /tmp/a\\nb")
        let long = "/" + String(repeating: "x", count: 1000)
        #expect(SandboxRefusal.write(long).sentence(memoryLimit: nil).count < 300)
        #expect(SandboxRefusal(line: #"{"record":"sandbox","refused":"socket"}"#) == .socket)
    }
}

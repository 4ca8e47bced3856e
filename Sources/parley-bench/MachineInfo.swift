import Foundation

/// The machine the figures come from, printed at the top of every report.
enum MachineInfo {
    /// Lines describing the machine, the build and the time.
    static var lines: [String] {
        let processInfo = ProcessInfo.processInfo
        let cpu = cpuModel ?? "unknown CPU"
        let memory = Double(processInfo.physicalMemory) / 1_073_741_824
        var build = "release"
        #if DEBUG
        build = "DEBUG (figures are not meaningful: build with -c release)"
        #endif
        return [
            "- Date: \(Date().formatted(.iso8601))",
            "- CPU: \(cpu), \(processInfo.activeProcessorCount) cores available",
            "- RAM: \(format(memory, digits: 1)) GiB",
            "- OS: \(operatingSystem ?? processInfo.operatingSystemVersionString)",
            "- Build: \(build)",
        ]
    }

    /// The first `model name` of `/proc/cpuinfo`.
    static var cpuModel: String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// `PRETTY_NAME` from `/etc/os-release`.
    static var operatingSystem: String? {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}

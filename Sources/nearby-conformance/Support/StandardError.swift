struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileDescriptorOutput.write(string, fd: 2)
    }
}

func printError(_ line: String) {
    var stderr = StandardError()
    print(line, to: &stderr)
}

import ArgumentParser

/// A word where a command belongs that names none (`stratus qurey`, `stratus zones creat Foo`).
///
/// The dashboard and the `list` subcommands are defaults, so ArgumentParser reads such a word as
/// an unexpected argument of the default and prints the default's usage. Asked only after a
/// parse failed, this finds the word and says what was meant instead.
enum UnknownCommand {
    /// `unknown command 'qurey'; did you mean 'query'? ...`, or nil when every word that stands
    /// where a command belongs names one (the failure is something else).
    static func message(for arguments: [String], root: any ParsableCommand.Type = Stratus.self) -> String? {
        var command: any ParsableCommand.Type = root
        var path = [name(of: root)]
        for argument in arguments {
            let subcommands: [any ParsableCommand.Type] = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-") else { return nil }
            var names: [String] = []
            var matched: (any ParsableCommand.Type)?
            for subcommand in subcommands {
                let subcommandName = name(of: subcommand)
                names.append(subcommandName)
                if subcommandName == argument || subcommand.configuration.aliases.contains(argument) { matched = subcommand }
            }
            if let matched {
                command = matched
                path.append(argument)
                continue
            }
            let prefix = path.joined(separator: " ")
            var message = "unknown command '\(argument)'"
            if let guess = closest(to: argument, among: names) { message += "; did you mean '\(prefix) \(guess)'?" }
            return message + " (`\(prefix) --help` lists: \(names.joined(separator: ", ")))"
        }
        return nil
    }

    /// A command's name as typed (its configured name, else the one derived from its type).
    private static func name<Command: ParsableCommand>(of command: Command.Type) -> String {
        Command._commandName
    }

    /// The name a typo most likely meant: at most a third of its letters apart (at least one).
    static func closest(to word: String, among names: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = names.map { (name: $0, distance: editDistance(word.lowercased(), $0)) }.filter { $0.distance <= limit }
        return scored.min { $0.distance < $1.distance }?.name
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}

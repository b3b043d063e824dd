// Everything that lays out text in cells measures it with StratusText's `DisplayWidth`; users of
// the toolkit get it with `import StratusTerminal`, as before the table moved to its own target
// (which the predicate language shares, so carets and cells agree).
@_exported import StratusText

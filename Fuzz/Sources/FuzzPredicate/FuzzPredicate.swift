import CLibFuzzer
import StratusFuzzing

// SwiftPM links an executable with `main` as an alias of `FuzzPredicate_main` (so that tests can
// link executables); under -parse-as-library nothing defines it, so it is defined here and
// hands over to libFuzzer's driver.
@_cdecl("FuzzPredicate_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in FuzzTargets.libFuzzerInput("predicate", data, size) }
}

/// libFuzzer's entry point for the `predicate` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTargets.libFuzzerInput("predicate", data, size)
}

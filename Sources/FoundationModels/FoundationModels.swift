// Apple's `import FoundationModels` on Linux: Parley's `LanguageModels` and Foundation, re-exported, with
// `SystemLanguageModel` and the session initializers that take no model. On Apple platforms the module compiles to
// nothing, so that Apple's own FoundationModels framework is the one apps there use.
#if !canImport(Darwin)
@_exported public import Foundation
@_exported public import LanguageModels
#endif

import Foundation
import LanguageModels
import LanguageModelsTesting
import Testing

/// Apple 26's `GenerationError` and its conversions. The tests are deprecated because the type is: a deprecated
/// context is the only one in which using it does not warn.
@Suite struct GenerationErrorTests {
    /// Every `LanguageModelError` case, with the 26.x case it becomes.
    static let modernErrors: [(LanguageModelError, String)] = [
        (.contextSizeExceeded(.init(contextSize: 100, tokenCount: 120)), "exceededContextWindowSize"),
        (.rateLimited(.init(resetDate: Date(timeIntervalSince1970: 5), debugDescription: "slow down")), "rateLimited"),
        (.timeout(.init(debugDescription: "no answer")), "rateLimited"),
        (.refusal(.init(explanation: "I won't.")), "refusal"),
        (.guardrailViolation(.init(debugDescription: "blocked")), "guardrailViolation"),
        (
            .unsupportedCapability(.init(capability: .vision, debugDescription: "no images")),
            "assetsUnavailable"
        ),
        (
            .unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "odd entry")),
            "assetsUnavailable"
        ),
        (.unsupportedGenerationGuide(.init(schemaName: "Offer", debugDescription: "regex")), "unsupportedGuide"),
        (
            .unsupportedLanguageOrLocale(.init(languageCode: .init("fr"), debugDescription: "no French")),
            "unsupportedLanguageOrLocale"
        ),
    ]

    @available(*, deprecated)
    static func caseName(_ error: LanguageModelSession.GenerationError) -> String {
        switch error {
        case .exceededContextWindowSize: "exceededContextWindowSize"
        case .assetsUnavailable: "assetsUnavailable"
        case .guardrailViolation: "guardrailViolation"
        case .unsupportedGuide: "unsupportedGuide"
        case .unsupportedLanguageOrLocale: "unsupportedLanguageOrLocale"
        case .decodingFailure: "decodingFailure"
        case .rateLimited: "rateLimited"
        case .concurrentRequests: "concurrentRequests"
        case .refusal: "refusal"
        }
    }

    @available(*, deprecated)
    @Test func everyLanguageModelErrorHasA26FormAndComesBackUnchanged() throws {
        for (modern, expected) in Self.modernErrors {
            let old = try #require(LanguageModelSession.GenerationError(modern))
            #expect(Self.caseName(old) == expected, "\(modern)")
            #expect(old.context.debugDescription.isEmpty == false)
            // Back again: the very error, with its facts (sizes, reset date, capability).
            let back = try #require(LanguageModelError(old))
            #expect(back.description == modern.description)
            #expect(back.recoverySuggestion == modern.recoverySuggestion)
        }
        let converted = try #require(
            LanguageModelSession.GenerationError(
                LanguageModelError.contextSizeExceeded(.init(contextSize: 100, tokenCount: 120))))
        let overflow = try #require(LanguageModelError(converted))
        guard case .contextSizeExceeded(let info) = overflow else { Issue.record("\(overflow)"); return }
        #expect(info.contextSize == 100 && info.tokenCount == 120)
    }

    @available(*, deprecated)
    @Test func a26ErrorMadeByHandMapsAsAppleDocuments() throws {
        let context = LanguageModelSession.GenerationError.Context(debugDescription: "too long")
        let overflow = try #require(LanguageModelError(.exceededContextWindowSize(context)))
        guard case .contextSizeExceeded(let info) = overflow else { Issue.record("\(overflow)"); return }
        #expect(info.debugDescription == "too long")
        let guide = try #require(LanguageModelError(.unsupportedGuide(context)))
        guard case .unsupportedGenerationGuide = guide else { Issue.record("\(guide)"); return }
        #expect(LanguageModelError(.assetsUnavailable(context)) == nil)
        #expect(LanguageModelError(.concurrentRequests(context)) == nil)
        #expect(LanguageModelError(.decodingFailure(context)) == nil)
        #expect(LanguageModelSession.Error(.concurrentRequests(context)) == .concurrentRequests)
        #expect(LanguageModelSession.Error(.rateLimited(context)) == nil)
        #expect(GeneratedContent.ParsingError(.decodingFailure(context))?.debugDescription == "too long")
        #expect(GeneratedContent.ParsingError(.guardrailViolation(context)) == nil)
    }

    @available(*, deprecated)
    @Test func parsingErrorsAndConcurrentRequestsConvertBothWays() throws {
        let parsing = GeneratedContent.ParsingError(rawContent: "{\"a\":", debugDescription: "cut short")
        let old = try #require(LanguageModelSession.GenerationError(parsing))
        #expect(Self.caseName(old) == "decodingFailure")
        #expect(GeneratedContent.ParsingError(old)?.rawContent == "{\"a\":")
        let busy = try #require(LanguageModelSession.GenerationError(LanguageModelSession.Error.concurrentRequests))
        #expect(Self.caseName(busy) == "concurrentRequests")
        #expect(LanguageModelSession.Error(busy) == .concurrentRequests)
        // Errors that were never GenerationErrors stay what they are.
        #expect(LanguageModelSession.GenerationError(CancellationError()) == nil)
        #expect(
            LanguageModelSession.GenerationError(LanguageModelSession.Error.transcriptMutationWhileResponding) == nil)
        #expect(LanguageModelSession.GenerationError(BrokenTool.Failure()) == nil)
        // A GenerationError converts to itself.
        #expect(LanguageModelSession.GenerationError(old).map(Self.caseName) == "decodingFailure")
    }

    @available(*, deprecated)
    @Test func itIsALocalizedErrorThatSaysWhatToDo() throws {
        let error = LanguageModelSession.GenerationError.rateLimited(.init(debugDescription: "the server is busy"))
        #expect(error.errorDescription == "Rate limited: the server is busy")
        #expect(error.failureReason == "the server is busy")
        #expect(error.recoverySuggestion?.isEmpty == false)
        #expect((error as any LocalizedError).errorDescription == error.errorDescription)
        // Converted from a modern error, the suggestion is that error's (which knows when to retry).
        let reset = Date(timeIntervalSince1970: 1_000_000)
        let converted = try #require(
            LanguageModelSession.GenerationError(
                LanguageModelError.rateLimited(.init(resetDate: reset, debugDescription: "slow down"))))
        #expect(converted.recoverySuggestion?.contains("1970-01-12") == true)
    }

    @available(*, deprecated)
    @Test func a26StyleCatchPortsWithOneLine() async throws {
        let model = MockLanguageModel(replies: [
            .failure(LanguageModelError.contextSizeExceeded(.init(contextSize: 10, tokenCount: 11)))
        ])
        let session = LanguageModelSession(model: model)
        var handled: String?
        do {
            try await session.respond(to: "hello")
        } catch {
            if let error = LanguageModelSession.GenerationError(error) { handled = Self.caseName(error) }
        }
        #expect(handled == "exceededContextWindowSize")
    }

    @available(*, deprecated)
    @Test func aRefusalExplainsItselfInBothForms() async throws {
        let modern = LanguageModelError.Refusal(explanation: "I only sell lanterns.")
        #expect(try await modern.explanation.content == "I only sell lanterns.")
        #expect(try await modern.explanation.transcriptEntries.isEmpty)
        var snapshots: [String] = []
        for try await snapshot in modern.explanationStream { snapshots.append(snapshot.content) }
        #expect(snapshots == ["I only sell lanterns."])
        #expect(try await modern.explanationStream.collect().content == "I only sell lanterns.")

        let old = try #require(LanguageModelSession.GenerationError(LanguageModelError.refusal(modern)))
        guard case .refusal(let refusal, _) = old else { Issue.record("\(old)"); return }
        #expect(try await refusal.explanation.content == "I only sell lanterns.")
        #expect(try await refusal.explanationStream.collect().content == "I only sell lanterns.")
        // A refusal made by hand explains itself with its last response entry.
        let byHand = LanguageModelSession.GenerationError.Refusal(transcriptEntries: [
            .prompt(.init(segments: [.text(.init(content: "Sell me a sword."))])),
            .response(.init(assetIDs: [], segments: [.text(.init(content: "Swords are not mine to sell."))])),
        ])
        #expect(try await byHand.explanation.content == "Swords are not mine to sell.")
        let modernAgain = try #require(LanguageModelError(.refusal(byHand, .init(debugDescription: "refused"))))
        guard case .refusal(let back) = modernAgain else { Issue.record("not a refusal"); return }
        #expect(back.explanationText == "Swords are not mine to sell.")
    }

    /// Built without the `FoundationModels26Errors` trait (this package's tests are), sessions throw Apple 27's
    /// types, awaited and streamed; ExamplesTests' GenerationError26TraitTests builds an app with the trait.
    @available(*, deprecated)
    @Test func byDefaultSessionsThrowApple27sTypesNotGenerationError() async throws {
        let tooSmall = "Tell me everything about the old mill by the river, who built it, and when."
        func session(_ replies: [MockLanguageModel.Reply], contextSize: Int = 4096) -> LanguageModelSession {
            LanguageModelSession(model: MockLanguageModel(contextSize: contextSize, replies: replies))
        }
        // Awaited and streamed, a context too small is LanguageModelError.contextSizeExceeded.
        var awaited: (any Error)?
        do { try await session([.text("unused")], contextSize: 8).respond(to: tooSmall) } catch { awaited = error }
        var streamed: (any Error)?
        do {
            for try await _ in session([.text("unused")], contextSize: 8).streamResponse(to: tooSmall) {}
        } catch { streamed = error }
        for error in [awaited, streamed] {
            guard case .contextSizeExceeded? = error as? LanguageModelError else {
                Issue.record("not LanguageModelError.contextSizeExceeded: \(String(describing: error))")
                continue
            }
            #expect(!(error is LanguageModelSession.GenerationError))
            // The 26.x catch clause does not match; converting does.
            var caught26 = false
            let thrown = try #require(error)
            do {
                throw thrown
            } catch LanguageModelSession.GenerationError.exceededContextWindowSize {
                caught26 = true
            } catch {}
            #expect(!caught26)
            #expect(LanguageModelSession.GenerationError(thrown).map(Self.caseName) == "exceededContextWindowSize")
        }
        // Output that does not follow the type is GeneratedContent.ParsingError.
        await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session([.text("not a number")]).respond(to: "How many mills?", generating: Int.self)
        }
    }
}

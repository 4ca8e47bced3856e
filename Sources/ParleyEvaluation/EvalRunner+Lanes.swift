import GameWorld
import LanguageModels
import ParleyEngine
import Synchronization

// What the games of one lane of an evaluation share (see `EvalRunner.run(_:)`): the claim check, built once for the
// pack's world, and with `reusesModels` each NPC's model.

/// A lane of evaluation cases, run one after another, each in a fresh game.
struct EvalLane: Sendable {
    /// Hands out 0, 1, 2... to whichever lane asks next; the mutex makes it Sendable.
    final class Counter: Sendable {
        private let next = Mutex(0)

        /// The next number.
        func take() -> Int {
            next.withLock { next in
                defer { next += 1 }
                return next
            }
        }
    }

    /// Checks NPC lines in every game of the lane.
    let claimChecker: ClaimChecker
    /// Makes the NPCs' models for the lane's games: with `reusesModels`, each NPC's model is made once, by the first
    /// game that talks to the NPC, and given to the later ones.
    let models: Game.ModelProvider

    /// A lane of a runner.
    ///
    /// - Parameters:
    ///   - runner: The runner, with its models.
    ///   - claimChecker: The claim check for the runner's pack.
    init(runner: EvalRunner, claimChecker: ClaimChecker) {
        self.claimChecker = claimChecker
        guard runner.reusesModels else {
            models = runner.models
            return
        }
        let made = Mutex<[NPCID: any LanguageModel]>([:])
        let make = runner.models
        models = { npc, world in
            if let model = made.withLock({ $0[npc.id] }) { return model }
            let model = try await make(npc, world)
            made.withLock { $0[npc.id] = model }
            return model
        }
    }
}

extension Game {
    /// Makes the game check NPC lines with `checker`, built once for its world (as the game would build it at its
    /// first turn), so that many games of one world need not each build their own.
    func share(_ checker: ClaimChecker) {
        claimChecker = checker
    }
}

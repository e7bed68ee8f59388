import Foundation

// Stage 7 of the compiler: the dependency graph (which conditions and values to evaluate again when
// a value changes) and the order calculated values are evaluated in.

extension SurveyCompiler {
    /// For each slot (a step's answer or a value), the conditions and values that read it.
    ///
    /// The pairs are given in the order the table keeps for each slot, twice (to count, then to
    /// place): a list of them was the size of the table again, at the load's peak.
    static func makeWatchers(
        steps: StepColumns, units: [CompiledUnit], calculated: [CompiledCalculated], triggers: [CompiledTrigger]
    ) -> WatcherTable {
        let stepExtras = steps.extras.keys.sorted()
        func narrow(_ index: Int) -> Int32 { Int32(truncatingIfNeeded: index) }
        func forEachWatcher(_ add: (Int, Watcher) -> Void) {
            steps.conditions.withUnsafeBufferPointer { conditions in
                for index in conditions.indices {
                    let condition = conditions[index]
                    switch condition.kind {
                    case .always: break
                    case .comparison: add(Int(condition.slot), .stepVisibility(narrow(index)))
                    case .expression:
                        steps.conditionOwners[Int(condition.slot)].forEachSlot {
                            add($0, .stepVisibility(narrow(index)))
                        }
                    }
                }
            }
            for index in units.indices {
                units[index].visibleIf?.forEachSlot { add($0, .unitVisibility(narrow(index))) }
            }
            for (index, value) in calculated.enumerated() {
                value.expression.forEachSlot { add($0, .calculated(narrow(index))) }
            }
            // Choice conditions, defaults and `enableIf` are kept in a step's extras: only those steps.
            for index in stepExtras {
                guard let choiceConditions = steps.extras[index]?.choiceConditions, !choiceConditions.isEmpty
                else { continue }
                var slots = Set<Int>()
                for condition in choiceConditions.values { slots.formUnion(condition.slots) }
                for slot in slots.sorted() where slot != index { add(slot, .choices(narrow(index))) }
            }
            for index in stepExtras {
                guard let step = steps.extras[index] else { continue }
                step.defaultExpression?.forEachSlot { slot in
                    if slot != index { add(slot, .defaultValue(narrow(index))) }
                }
                if step.hasTypeDefault {
                    // A type's default answer reads the values of its own expressions.
                    var slots = Set<Int>()
                    for expression in step.typeExpressions.values { expression.forEachSlot { slots.insert($0) } }
                    for slot in slots.sorted() where slot != index { add(slot, .defaultValue(narrow(index))) }
                }
                step.enableIf?.forEachSlot { add($0, .enabled(narrow(index))) }
                if let rules = step.valueRules, !rules.setsOnEveryChange || !rules.resetsOnEveryChange {
                    // Rules that run after every change are run from the session's list instead.
                    var slots = Set<Int>()
                    for expression in [rules.setValueIf, rules.setValueExpression, rules.resetValueIf] {
                        expression?.forEachSlot { slots.insert($0) }
                    }
                    for slot in slots.sorted() where slot != index { add(slot, .valueRules(narrow(index))) }
                }
            }
            for (index, trigger) in triggers.enumerated() {
                if case .complete = trigger.action { continue }
                trigger.condition.forEachSlot { add($0, .trigger(narrow(index))) }
            }
        }
        return WatcherTable(slotCount: steps.count + calculated.count, forEachPair: forEachWatcher)
    }

    /// The calculated values in evaluation order (each after the values it reads).
    /// - Throws: a `dependencyCycle` error naming the cycle, or an `invalidValue` error when a chain
    ///   of dependent values is longer than ``SurveyLoader/maximumCalculatedChain``.
    func calculatedOrder(_ values: [CompiledCalculated], stepCount: Int) throws(SurveyLoadError) -> [Int] {
        // An iterative depth-first search (a recursive one overflows the stack on long chains).
        var state = [UInt8](repeating: 0, count: values.count)  // 0 new, 1 visiting, 2 done
        /// For each finished value, the length of the longest chain of calculated values it ends.
        var chainLength = [Int](repeating: 0, count: values.count)
        var order: [Int] = []
        order.reserveCapacity(values.count)
        /// The values being visited, each with the position of the next slot to look at.
        var stack: [(index: Int, next: Int)] = []
        func failure(_ kind: SurveyError.Kind, _ message: String, at index: Int) -> SurveyLoadError {
            SurveyLoadError(errors: [
                SurveyError(
                    kind, message, path: JSONPath.root.appending("calculatedValues").appending(index))
            ])
        }
        for root in values.indices where state[root] == 0 {
            state[root] = 1
            stack.append((root, 0))
            while let (index, next) = stack.last {
                let slots = values[index].expression.slots
                if next < slots.count {
                    stack[stack.count - 1].next += 1
                    let slot = slots[next]
                    guard slot >= stepCount else { continue }
                    let dependency = slot - stepCount
                    switch state[dependency] {
                    case 0:
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    case 1:
                        let start = stack.firstIndex { $0.index == dependency } ?? 0
                        var names = stack[start...].map { values[$0.index].name } + [values[dependency].name]
                        var count = ""
                        if names.count > 12 {
                            count = " (\(names.count - 1) calculated values)"
                            names = names.prefix(5) + ["…"] + names.suffix(5)
                        }
                        throw failure(
                            .dependencyCycle,
                            "calculated values depend on each other in a cycle: \(names.joined(separator: " → "))\(count)",
                            at: dependency)
                    default:
                        break
                    }
                    continue
                }
                stack.removeLast()
                var length = 1
                for slot in slots where slot >= stepCount {
                    length = max(length, chainLength[slot - stepCount] + 1)
                }
                if length > SurveyLoader.maximumCalculatedChain {
                    throw failure(
                        .invalidValue,
                        "calculated value '\(values[index].name)' ends a chain of more than \(SurveyLoader.maximumCalculatedChain) calculated values that depend on one another",
                        at: index)
                }
                chainLength[index] = length
                state[index] = 2
                order.append(index)
            }
        }
        return order
    }
}

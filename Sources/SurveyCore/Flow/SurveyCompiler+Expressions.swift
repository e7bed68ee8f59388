import Foundation

// What every stage of the compiler uses to compile an expression or check a text's `{name}` pipes;
// an error is recorded where it is found, with the member's JSON path and the step's id.

extension SurveyCompiler {
    /// `source` compiled, or `nil` with an error recorded; `owner` is the element it belongs to, for
    /// `{$self.…}` and the other relative references (``ExpressionOwner``), asked only when it has one.
    mutating func compileExpression(
        _ source: String?, member: String, path: @autoclosure () -> JSONPath, stepID: String?,
        owner: @autoclosure () -> ExpressionOwner? = nil, resolve: @escaping (String) -> Int?
    ) -> Expression? {
        guard let source else { return nil }
        do {
            let context =
                source.utf8.contains(UInt8(ascii: "$")) ? compileContext.map { $0.owned(by: owner()) } : compileContext
            let expression = try Expression(
                source, functions: functions, resolve: resolve, otherChoices: otherChoices, context: context)
            if expression.callsImpureFunction { usesDateFunctions = true }
            return expression
        } catch {
            let kind: SurveyError.Kind
            switch error.kind {
            case .syntax: kind = .expressionSyntax
            case .unknownReference: kind = .unknownReference
            case .unknownFunction, .wrongArgumentCount: kind = .unknownFunction
            }
            errors.append(
                SurveyError(
                    kind, "invalid \(member) \"\(source)\" at column \(error.column): \(error.message)",
                    path: path().appending(member), stepID: stepID))
            return nil
        }
    }

    /// `(a) and (b) and …` of the panels' conditions and the step's own, compiled; `nil` when a panel's
    /// condition does not compile (its error is reported at the panel).
    mutating func combine(
        _ panelConditions: [String], own: String?, ownCompiled: Expression?, owner: ExpressionOwner? = nil,
        resolve: @escaping (String) -> Int?
    ) -> Expression? {
        if own != nil, ownCompiled == nil { return nil }
        let text = (panelConditions + (own.map { [$0] } ?? [])).map { "(\($0))" }.joined(separator: " and ")
        let context =
            text.utf8.contains(UInt8(ascii: "$")) ? compileContext.map { $0.owned(by: owner) } : compileContext
        guard
            let expression = try? Expression(
                text, functions: functions, resolve: resolve, otherChoices: otherChoices, context: context)
        else { return ownCompiled }
        if expression.callsImpureFunction { usesDateFunctions = true }
        return expression
    }

    mutating func checkPiping(
        _ text: LocalizedText?, path: @autoclosure () -> JSONPath, stepID: String, resolve: (String) -> Int?
    ) {
        guard let text else { return }
        if let plain = text.plainText, !plain.utf8.contains(UInt8(ascii: "{")) { return }
        for (locale, value) in text.translations where value.utf8.contains(UInt8(ascii: "{")) {
            for name in PipedText.references(in: value) {
                if name.hasPrefix("$"), compileContext?.resolveProperty != nil {
                    pipeProperty(
                        name, path: text.plainText != nil ? path() : path().appending(locale),
                        stepID: stepID, resolve: resolve)
                    continue
                }
                let root = name.split(whereSeparator: { $0 == "." || $0 == "[" }).first.map(String.init) ?? name
                let isOtherText =
                    name.hasSuffix("-Comment")
                    && resolve(String(name.dropLast(8))).map {
                        otherChoices[$0] != nil
                    } == true
                if resolve(name) == nil && resolve(root) == nil && !isOtherText {
                    let memberPath =
                        text.plainText != nil ? path() : path().appending(locale)
                    errors.append(
                        SurveyError(
                            .unknownReference,
                            "text pipes {\(name)}, but there is no step or calculated value '\(root)'",
                            path: memberPath, stepID: stepID))
                }
            }
        }
    }
}

extension SurveyCompiler {
    /// `{$name.property}` in a text: compiled once (``pipedProperties``), or an error at the text.
    mutating func pipeProperty(_ name: String, path: JSONPath, stepID: String, resolve: (String) -> Int?) {
        guard pipedProperties[name] == nil else { return }
        let (functions, otherChoices, context) = (functions, otherChoices, compileContext)
        // The parse reads names only while it runs: `resolve` does not outlive it.
        let compiled = withoutActuallyEscaping(resolve) { resolve in
            Result { () throws(ExpressionCompileError) in
                try Expression(
                    "{\(name)}", functions: functions, resolve: resolve, otherChoices: otherChoices, context: context)
            }
        }
        switch compiled {
        case .success(let expression):
            if expression.callsImpureFunction { usesDateFunctions = true }
            pipedProperties[name] = expression
        case .failure(let error):
            errors.append(
                SurveyError(.unknownReference, "text pipes {\(name)}: \(error.message)", path: path, stepID: stepID))
        }
    }
}

/// `{name}` references inside user-facing text.
enum PipedText {
    static func references(in text: String) -> [String] {
        var names: [String] = []
        var remainder = Substring(text)
        while let open = remainder.firstIndex(of: "{") {
            let after = remainder.index(after: open)
            guard let close = remainder[after...].firstIndex(of: "}") else { break }
            let name = remainder[after..<close].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { names.append(name) }
            remainder = remainder[remainder.index(after: close)...]
        }
        return names
    }
}

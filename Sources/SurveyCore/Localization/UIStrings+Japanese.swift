extension UIStrings {
    // Filled in by the localisation work; missing keys fall back to English.
    static let japanese: [String: String] = [:]
}

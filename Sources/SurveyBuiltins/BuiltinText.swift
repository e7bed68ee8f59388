import SurveyCore

/// Text shipped with the built-in types (form field labels, preset labels), translated for the
/// locales of ``UIStrings/supportedLocales`` and resolved with the same locale matching as the
/// UI strings.
struct BuiltinText: Sendable, Hashable {
    /// Translations keyed by a supported locale; must contain "en".
    let translations: [String: String]

    /// The English text, used in answer errors (which carry no locale) and as the fallback.
    var english: String { translations["en"] ?? "" }

    /// The text in `context`'s locale, or English.
    func resolved(in context: PresentationContext) -> String {
        translations[context.strings.locale] ?? english
    }

    static func english(_ text: String) -> BuiltinText {
        BuiltinText(translations: ["en": text])
    }
}

extension BuiltinText {
    static let name = BuiltinText(translations: [
        "en": "Name", "es": "Nombre", "fr": "Nom", "de": "Name", "it": "Nome", "pt-BR": "Nome", "ja": "名前",
        "ko": "이름", "zh-Hans": "姓名", "zh-Hant": "姓名",
    ])
    static let email = BuiltinText(translations: [
        "en": "Email", "es": "Correo electrónico", "fr": "E-mail", "de": "E-Mail", "it": "Email", "pt-BR": "E-mail",
        "ja": "メールアドレス", "ko": "이메일", "zh-Hans": "电子邮件", "zh-Hant": "電子郵件",
    ])
    static let phone = BuiltinText(translations: [
        "en": "Phone", "es": "Teléfono", "fr": "Téléphone", "de": "Telefon", "it": "Telefono", "pt-BR": "Telefone",
        "ja": "電話番号", "ko": "전화번호", "zh-Hans": "电话", "zh-Hant": "電話",
    ])
    static let company = BuiltinText(translations: [
        "en": "Company", "es": "Empresa", "fr": "Entreprise", "de": "Unternehmen", "it": "Azienda", "pt-BR": "Empresa",
        "ja": "会社名", "ko": "회사", "zh-Hans": "公司", "zh-Hant": "公司",
    ])
    static let message = BuiltinText(translations: [
        "en": "Message", "es": "Mensaje", "fr": "Message", "de": "Nachricht", "it": "Messaggio", "pt-BR": "Mensagem",
        "ja": "メッセージ", "ko": "메시지", "zh-Hans": "留言", "zh-Hant": "留言",
    ])
    static let rating = BuiltinText(translations: [
        "en": "Rating", "es": "Valoración", "fr": "Note", "de": "Bewertung", "it": "Valutazione", "pt-BR": "Avaliação",
        "ja": "評価", "ko": "평점", "zh-Hans": "评分", "zh-Hant": "評分",
    ])
    static let category = BuiltinText(translations: [
        "en": "Category", "es": "Categoría", "fr": "Catégorie", "de": "Kategorie", "it": "Categoria",
        "pt-BR": "Categoria", "ja": "カテゴリ", "ko": "카테고리", "zh-Hans": "类别", "zh-Hant": "類別",
    ])
    static let notAtAllLikely = BuiltinText(translations: [
        "en": "Not at all likely", "es": "Nada probable", "fr": "Pas du tout probable",
        "de": "Überhaupt nicht wahrscheinlich",
        "it": "Per niente probabile", "pt-BR": "Nada provável", "ja": "まったく勧めない", "ko": "전혀 그렇지 않다",
        "zh-Hans": "完全不可能", "zh-Hant": "完全不可能",
    ])
    static let extremelyLikely = BuiltinText(translations: [
        "en": "Extremely likely", "es": "Muy probable", "fr": "Très probable", "de": "Äußerst wahrscheinlich",
        "it": "Estremamente probabile", "pt-BR": "Extremamente provável", "ja": "非常に勧めたい", "ko": "매우 그렇다",
        "zh-Hans": "极有可能", "zh-Hant": "極有可能",
    ])
    static let referral = BuiltinText(translations: [
        "en": "Friend or colleague", "es": "Un amigo o colega", "fr": "Un ami ou un collègue",
        "de": "Freunde oder Kollegen", "it": "Un amico o un collega", "pt-BR": "Amigo ou colega", "ja": "友人・同僚",
        "ko": "친구 또는 동료", "zh-Hans": "朋友或同事", "zh-Hant": "朋友或同事",
    ])
    static let podcast = BuiltinText(translations: [
        "en": "Podcast", "es": "Pódcast", "fr": "Podcast", "de": "Podcast", "it": "Podcast", "pt-BR": "Podcast",
        "ja": "ポッドキャスト", "ko": "팟캐스트", "zh-Hans": "播客", "zh-Hant": "Podcast",
    ])
    static let article = BuiltinText(translations: [
        "en": "Article or blog", "es": "Artículo o blog", "fr": "Article ou blog", "de": "Artikel oder Blog",
        "it": "Articolo o blog", "pt-BR": "Artigo ou blog", "ja": "記事・ブログ", "ko": "기사 또는 블로그",
        "zh-Hans": "文章或博客", "zh-Hant": "文章或部落格",
    ])
}

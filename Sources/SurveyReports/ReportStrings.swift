/// The report page's headings in the engine's ten locales (English when a locale is missing).
enum ReportStrings {
    static let keys = [
        "report", "responses", "completionRate", "completed", "invitations", "answered", "seen", "dismissed", "mean",
        "median", "minimum", "maximum", "funnel", "dropOff", "paths", "answers", "search", "value", "count", "share",
        "reached", "stopped", "noAnswers", "time", "seconds", "averagePosition", "firstPlace", "otherTexts", "npsScore",
        "promoters", "passives", "detractors", "partial", "quotas", "limit",
    ]

    static let tables: [String: [String]] = [
        "en": [
            "Results", "Responses", "Completion rate", "Completed", "Invitations", "Answered", "Seen", "Dismissed",
            "Mean", "Median", "Minimum", "Maximum", "Funnel per question", "Drop-off per page", "Most common paths",
            "Answers", "Search the answers", "Value", "Count", "Share", "Reached", "Stopped", "No answers yet",
            "Median time per page", "s", "Average position", "First place", "Other answers", "Net Promoter Score",
            "Promoters", "Passives", "Detractors", "Partial (unfinished)", "Quotas", "Limit",
        ],
        "fr": [
            "Résultats", "Réponses", "Taux d’achèvement", "Terminées", "Invitations", "Répondu", "Vu", "Ignoré",
            "Moyenne", "Médiane", "Minimum", "Maximum", "Entonnoir par question", "Abandons par page",
            "Parcours les plus fréquents", "Réponses", "Rechercher dans les réponses", "Valeur", "Nombre", "Part",
            "Atteint", "Arrêté", "Pas encore de réponse", "Temps médian par page", "s", "Position moyenne",
            "Première place", "Autres réponses", "Net Promoter Score", "Promoteurs", "Passifs", "Détracteurs",
            "Partielles (non terminées)", "Quotas", "Limite",
        ],
        "de": [
            "Ergebnisse", "Antworten", "Abschlussquote", "Abgeschlossen", "Einladungen", "Beantwortet", "Gesehen",
            "Abgelehnt", "Mittelwert", "Median", "Minimum", "Maximum", "Trichter pro Frage", "Abbrüche pro Seite",
            "Häufigste Pfade", "Antworten", "Antworten durchsuchen", "Wert", "Anzahl", "Anteil", "Erreicht",
            "Abgebrochen", "Noch keine Antworten", "Mittlere Zeit pro Seite", "s", "Durchschnittliche Position",
            "Erster Platz", "Andere Antworten", "Net Promoter Score", "Promotoren", "Passive", "Kritiker",
            "Unvollständig", "Quoten", "Limit",
        ],
        "es": [
            "Resultados", "Respuestas", "Tasa de finalización", "Completadas", "Invitaciones", "Respondida", "Vista",
            "Descartada", "Media", "Mediana", "Mínimo", "Máximo", "Embudo por pregunta", "Abandono por página",
            "Recorridos más comunes", "Respuestas", "Buscar en las respuestas", "Valor", "Cantidad", "Porcentaje",
            "Alcanzada", "Detenida", "Aún no hay respuestas", "Tiempo mediano por página", "s", "Posición media",
            "Primer lugar", "Otras respuestas", "Net Promoter Score", "Promotores", "Pasivos", "Detractores",
            "Parciales (sin terminar)", "Cuotas", "Límite",
        ],
        "it": [
            "Risultati", "Risposte", "Tasso di completamento", "Completate", "Inviti", "Risposto", "Visto", "Ignorato",
            "Media", "Mediana", "Minimo", "Massimo", "Imbuto per domanda", "Abbandoni per pagina",
            "Percorsi più comuni", "Risposte", "Cerca nelle risposte", "Valore", "Numero", "Quota", "Raggiunta",
            "Interrotta", "Ancora nessuna risposta", "Tempo mediano per pagina", "s", "Posizione media", "Primo posto",
            "Altre risposte", "Net Promoter Score", "Promotori", "Passivi", "Detrattori", "Parziali (non completate)",
            "Quote", "Limite",
        ],
        "pt-BR": [
            "Resultados", "Respostas", "Taxa de conclusão", "Concluídas", "Convites", "Respondida", "Vista",
            "Dispensada", "Média", "Mediana", "Mínimo", "Máximo", "Funil por pergunta", "Abandono por página",
            "Caminhos mais comuns", "Respostas", "Pesquisar nas respostas", "Valor", "Quantidade", "Parcela",
            "Alcançada", "Interrompida", "Ainda sem respostas", "Tempo mediano por página", "s", "Posição média",
            "Primeiro lugar", "Outras respostas", "Net Promoter Score", "Promotores", "Neutros", "Detratores",
            "Parciais (não concluídas)", "Cotas", "Limite",
        ],
        "ja": [
            "結果", "回答数", "完了率", "完了", "表示回数", "回答済み", "表示済み", "閉じた", "平均", "中央値", "最小", "最大",
            "質問ごとのファネル", "ページごとの離脱", "よくある経路", "回答", "回答を検索", "値", "件数", "割合", "到達", "離脱", "まだ回答がありません",
            "ページごとの所要時間（中央値）", "秒", "平均順位", "1位", "その他の回答", "ネットプロモータースコア", "推奨者", "中立者", "批判者", "途中の回答", "クォータ", "上限",
        ],
        "ko": [
            "결과", "응답", "완료율", "완료", "초대", "응답함", "봄", "닫음", "평균", "중앙값", "최소", "최대", "질문별 퍼널",
            "페이지별 이탈", "가장 흔한 경로", "답변", "답변 검색", "값", "개수", "비율", "도달", "중단", "아직 응답이 없습니다", "페이지별 중앙 소요 시간", "초",
            "평균 순위", "1위", "기타 답변", "순추천지수", "추천자", "중립자", "비추천자", "미완료 응답", "할당량", "한도",
        ],
        "zh-Hans": [
            "结果", "回复", "完成率", "已完成", "邀请", "已回答", "已查看", "已关闭", "平均值", "中位数", "最小值", "最大值",
            "各问题漏斗", "各页流失", "最常见路径", "回答", "搜索回答", "值", "数量", "占比", "到达", "停止", "尚无回答", "每页中位用时", "秒", "平均排名", "第一名",
            "其他回答", "净推荐值", "推荐者", "被动者", "贬损者", "未完成的回复", "配额", "上限",
        ],
        "zh-Hant": [
            "結果", "回覆", "完成率", "已完成", "邀請", "已回答", "已查看", "已關閉", "平均值", "中位數", "最小值", "最大值",
            "各問題漏斗", "各頁流失", "最常見路徑", "回答", "搜尋回答", "值", "數量", "占比", "到達", "停止", "尚無回答", "每頁中位用時", "秒", "平均排名", "第一名",
            "其他回答", "淨推薦值", "推薦者", "被動者", "貶損者", "未完成的回覆", "配額", "上限",
        ],
    ]

    /// The heading `key` in `locale` (its language when the region is unknown; English otherwise).
    static func text(_ key: String, locale: String) -> String {
        guard let index = keys.firstIndex(of: key) else { return key }
        let table =
            tables[locale] ?? tables[String(locale.split(separator: "-").first ?? "")]
            ?? (locale.hasPrefix("zh")
                ? tables[locale.contains("Hant") || locale.hasSuffix("TW") ? "zh-Hant" : "zh-Hans"] : nil)
            ?? (locale.hasPrefix("pt") ? tables["pt-BR"] : nil) ?? tables["en"] ?? []
        return index < table.count ? table[index] : key
    }
}

/// What the converter knows of SurveyJS's vocabulary besides what it converts.
enum Vocabulary {
    /// Properties, on any element or on the survey, that only change how things look.
    static let layout: Set<String> = [
        // Elements
        "width", "minWidth", "maxWidth", "startWithNewLine", "titleLocation", "descriptionLocation", "hideNumber",
        "indent", "errorLocation", "visibleIndex", "inputSize", "size", "autocomplete", "dataList", "textUpdateMode",
        "commentPlaceholder", "state", "innerIndent", "showNumber", "showQuestionNumbers", "questionTitleLocation",
        "questionStartIndex", "navigationTitle", "navigationDescription", "navigationButtonsVisibility", "showTitle",
        "useDisplayValuesInDynamicTexts", "titleTagName", "renderMode", "displayMode", "questionErrorLocation",
        "questionTitleWidth", "isRequiredText", "label", "swapOrder", "imageHeight", "imageWidth",
        "totalFormat", "totalText", "totalDisplayStyle", "totalCurrency", "renderAs", "showCompletePage",
        // Survey
        "showProgressBar", "progressBarType", "progressBarShowPageTitles", "progressBarShowPageNumbers", "showTOC",
        "tocLocation", "showPageTitles", "showPageNumbers", "widthMode", "fitToContainer", "headerView", "logo",
        "logoPosition", "logoWidth", "logoHeight", "logoFit", "backgroundImage", "backgroundImageFit",
        "backgroundImageAttachment", "backgroundOpacity", "completeText", "pageNextText", "pagePrevText",
        "startSurveyText", "previewText", "editText", "showPrevButton", "showNavigationButtons",
        "navigationButtonsLocation", "questionDescriptionLocation", "focusFirstQuestionAutomatic",
        "focusOnFirstError", "showBrandInfo", "loadingHtml", "completedBeforeHtml", "requiredText",
        "showCompletedPage", "showPreviewBeforeComplete", "firstPageIsStarted", "firstPageIsStartPage",
        "goNextPageAutomatic", "autoAdvanceEnabled", "autoAdvanceAllowComplete", "allowCompleteSurveyAutomatic",
        "showInvisibleElements", "sendResultOnPageNext", "storeOthersAsComment", "showQuestionNumbers",
        "questionTitlePattern", "autoGrowComment", "allowResizeComment", "commentAreaRows", "showTimerPanel",
        "showTimerPanelMode", "showTimer", "timerLocation", "timerInfoMode", "matrixDragHandleArea",
        "readOnlyCommentRenderMode", "readOnlyTextRenderMode", "questionsOnPageMode",
        "progressBarLocation", "progressBarInheritWidthFrom",
    ]

    /// Properties whose absence changes behaviour or data, with why they are not converted.
    static let unsupported: [String: String] = [
        "maxTimeToFinish": "time limits are not supported",
        "maxTimeToFinishPage": "time limits are not supported",
        "timeLimit": "time limits are not supported",
        "timeLimitPerPage": "time limits are not supported",
        "valueName": "an element that holds no answer has no value name",
        "correctAnswer": "quiz scoring is not supported",
        "requiredErrorText": "a custom message for a required answer is kept on questions, not here",
        "minErrorText": "custom messages for bounds are not supported",
        "maxErrorText": "custom messages for bounds are not supported",
        "inputMask": "the old inputMask property is not supported; use maskType and maskSettings",
        "maskType": "masks apply to text questions",
        "maskSettings": "masks apply to text questions",
        "cookieName":
            "a respondent is asked once by default (settings.display, docs/targeting.md); the respondent id, not a browser cookie, says who they are",
        "surveyId": "the SurveyJS service is not used",
        "surveyPostId": "the SurveyJS service is not used",
        "clientId": "the SurveyJS service is not used",
        "mode": "expected \"edit\" or \"display\"",
        "isSinglePage": "pages are kept as the file has them",
        "clearIfInvisible":
            "per-question clearing is not supported (but \"none\" on an expression question); use settings.clearInvisibleValues",
        "clearValueOnDisableItems": "choices are never disabled",
        "hideIfChoicesEmpty": "a question with no visible choice is still shown",
        "enableIf": "pages cannot be disabled",
        "readOnly": "pages cannot be read-only",
        "maxOthersLength": "the length of Other texts is not limited",
        "selectToRankEnabled": "every item must be ranked",
        "defaultPanelValue": "a new entry starts empty here",
        "defaultRowValue": "a new row starts empty here",
        "copyDefaultValueFromLastEntry": "a new entry starts empty here, not as a copy of the last one",
        "keyName": "entries with the same key are not refused here",
        "templateVisibleIf": "every entry is shown here",
        "resetValueIf": "only a question's own resetValueIf is supported, not a repeat item's",
        "setValueIf": "only a question's own setValueIf is supported, not a repeat item's",
        "setValueExpression": "only a question's own setValueExpression is supported, not a repeat item's",
    ]

    /// The element types survey-core 3.0.4 creates (its serializer's classes with a creator that are
    /// questions or panels; it matches them case-insensitively): an element of another type is not
    /// created there at all.
    static let surveyCoreElementTypes: Set<String> = [
        "boolean", "buttongroup", "checkbox", "comment", "dropdown", "empty", "expression", "file", "flowpanel",
        "html", "image", "imagemap", "imagepicker", "matrix", "matrixdropdown", "matrixdynamic", "multipletext",
        "panel", "paneldynamic", "radiogroup", "ranking", "rating", "signaturepad", "slider", "tagbox", "text",
    ]

    /// Element types that cannot be converted yet, with why.
    static let unconvertedTypes: [String: String] = [
        "custom": "custom components are not supported",
        "composite": "composite components are not supported",
    ]

    /// MIME types of `acceptedTypes` and the file extensions that stand for them.
    static let mimeFormats: [String: [String]] = [
        "image/*": ["png", "jpg", "jpeg", "gif", "webp", "svg", "heic", "bmp", "tif", "tiff"],
        "image/png": ["png"], "image/jpeg": ["jpg", "jpeg"], "image/gif": ["gif"], "image/webp": ["webp"],
        "image/svg+xml": ["svg"],
        "audio/*": ["mp3", "m4a", "wav", "ogg", "opus", "aac", "flac"],
        "video/*": ["mp4", "mov", "webm", "mkv", "avi"],
        "application/pdf": ["pdf"], "text/plain": ["txt"], "text/csv": ["csv"],
        "application/msword": ["doc"],
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ["docx"],
        "application/vnd.ms-excel": ["xls"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ["xlsx"],
        "application/zip": ["zip"],
    ]
}

/// The kinds a repeat's items may have here.
enum RepeatKinds {
    static let all: Set<String> = [
        "text", "number", "boolean", "date", "rating", "single-choice", "dropdown", "multiple-choice", "tagbox",
        "repeat", "matrix", "matrix-dropdown", "multiple-text", "scale", "nps", "image-choice", "ranking",
        "file", "slider",
    ]
}

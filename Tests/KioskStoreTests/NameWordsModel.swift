@testable import KioskStore

/// What a folded name's words are, written out in Swift: split at spaces and hyphens, as Unicode scalars. The
/// store makes them in SQL (`SearchKey.wordsSQL`); tests hold it to this model.
enum NameWordsModel {
    static func words(ofFolded key: String) -> Set<String> {
        Set(key.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "-" }).map { String($0) })
    }

    static func words(of name: String) -> Set<String> { words(ofFolded: SearchKey.fold(name)) }
}

import Foundation
import StratusModel

/// One record of the benchmark data set: a venue with strings, numbers, a date, a list, a
/// location and text worth searching. The same values go into the Stratus store and into the
/// hand-made SQLite baseline.
struct BenchVenue {
    var index: Int
    var title: String
    var category: String
    var price: Int64
    var rating: Double
    var opened: Int64
    var tags: [String]
    var latitude: Double
    var longitude: Double
    var description: String

    var recordName: String { "v\(index)" }

    static let categories = ["cafe", "bar", "museum", "park", "restaurant", "bakery", "library", "gallery", "theatre", "market", "hotel", "gym"]
    static let adjectives = ["Blue", "Golden", "Quiet", "Old", "Little", "Grand", "Green", "Hidden", "Royal", "Sunny", "Silver", "Wild"]
    static let nouns = ["Harbour", "Garden", "Corner", "Lantern", "Mill", "Bridge", "Square", "Orchard", "Station", "Tower", "Meadow", "Pier"]
    static let tagWords = ["vegan", "wifi", "outdoor", "quiet", "family", "late", "cheap", "view", "music", "pets", "parking", "brunch",
                           "cocktails", "art", "books", "coffee", "tea", "dessert", "rooftop", "historic"]
    static let vocabulary: [String] = {
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "fi", "gu", "ha", "ji"]
        var words: [String] = []
        for a in syllables { for b in syllables { words.append(a + b) } }
        return words
    }()

    static func make(_ index: Int, random: inout SeededGenerator) -> BenchVenue {
        func pick(_ items: [String]) -> String { items[random.below(items.count)] }
        var words = (0..<12).map { _ in pick(vocabulary) }
        if random.below(20) == 0 { words.append("harbour") }
        if random.below(50) == 0 { words.append("café") }
        return BenchVenue(
            index: index,
            title: "\(pick(adjectives)) \(pick(nouns)) \(index % 1000)",
            category: pick(categories),
            price: Int64(random.below(201)),
            rating: Double(random.below(51)) / 10,
            opened: 1_500_000_000_000 + Int64(random.below(300_000_000)) * 1000,
            tags: (0..<random.below(4)).map { _ in pick(tagWords) },
            latitude: 30 + Double(random.below(2_000_000)) / 100_000,
            longitude: -125 + Double(random.below(5_500_000)) / 100_000,
            description: words.joined(separator: " ")
        )
    }

    var fields: [String: FieldValue] {
        [
            "title": .string(title),
            "category": .string(category),
            "price": .int64(price),
            "rating": .double(rating),
            "opened": .timestamp(FieldValue.date(milliseconds: opened)),
            "tags": .list(.string, tags.map { .string($0) }),
            "location": .location(Location(latitude: latitude, longitude: longitude)),
            "description": .string(description),
        ]
    }
}

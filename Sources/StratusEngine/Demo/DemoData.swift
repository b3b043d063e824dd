import StratusModel
import StratusCloud

/// The words, names and places the demo store is made of, in several scripts.
enum DemoData {
    struct City {
        var name: String
        var country: String
        var location: Location
    }

    static let cities: [City] = [
        City(name: "Tokyo", country: "日本", location: Location(latitude: 35.6812, longitude: 139.7671)),
        City(name: "京都", country: "日本", location: Location(latitude: 35.0116, longitude: 135.7681)),
        City(name: "Paris", country: "France", location: Location(latitude: 48.8566, longitude: 2.3522)),
        City(name: "Cupertino", country: "USA", location: Location(latitude: 37.3318, longitude: -122.0302)),
        City(name: "San Francisco", country: "USA", location: Location(latitude: 37.7749, longitude: -122.4194)),
        City(name: "서울", country: "대한민국", location: Location(latitude: 37.5665, longitude: 126.9780)),
        City(name: "北京", country: "中国", location: Location(latitude: 39.9042, longitude: 116.4074)),
        City(name: "Reykjavík", country: "Ísland", location: Location(latitude: 64.1466, longitude: -21.9426)),
        City(name: "São Paulo", country: "Brasil", location: Location(latitude: -23.5505, longitude: -46.6333)),
        City(name: "Zürich", country: "Schweiz", location: Location(latitude: 47.3769, longitude: 8.5417)),
    ]
    static let tripWords = ["weekend", "getaway", "conference", "road trip", "旅行", "family visit", "hike", "food tour"]
    static let placeWords = ["Café", "Museum of", "Old town", "Park", "Station", "Market", "Temple", "Harbour"]
    static let emoji = ["☀️", "🍵", "🗼", "🏔️", "🍣", "🥐", "🚄", "📚", "👨‍👩‍👧", "🇯🇵", "✨", ""]
    static let tags = ["work", "family", "solo", "food", "hiking", "beach", "museum", "雪", "ramen"]
    static let colors = ["red", "green", "blue", "Red", "yellow", "purple", "orange", "black"]
    static let genres = ["fiction", "history", "science", "poetry", "travel", "cooking", "漫画"]
    static let firstNames = ["Alice", "Bob", "Chloé", "Dmitri", "Émile", "Fatima", "太郎", "花子", "민준", "芳", "Zoë", "Ólafur"]
    static let lastNames = ["Smith", "Jones", "Müller", "García", "田中", "山田", "김", "王", "Nguyễn", "O'Brien"]
    static let bookTitles = [
        "The Cloud Atlas", "吾輩は猫である", "A Brief History of Sync", "Tokens and Time", "Zones of Silence",
        "The Record Keeper", "ノルウェイの森", "Predicates for Poets", "The Quiet Change", "Offline First",
    ]
    static let sentences = [
        "Bob Smith recommended the ramen place near the station.",
        "The café had the best croissants in town.",
        "雨の日でも楽しめる場所です。",
        "Sync finished without a single conflict.",
        "Remember to bring the blue umbrella and the map.",
        "The museum opens at nine on weekdays.",
        "한강 공원에서 자전거를 탔어요.",
        "Diacritics like é, ü and ñ should be searchable without them.",
        "A long walk along the harbour at sunset 🌅.",
        "Meeting notes: ship the dashboard before the demo.",
    ]
}

/// Splits one CSV line into fields (RFC 4180 quoting within the line: `"a,b"` and `""` for a quote).
///
/// Batch input is one unit per line, so quoted fields never span lines; an unterminated quote is an
/// error rather than a silent merge with the next unit.
enum BatchCSVFields {
    static func split(_ line: Substring) -> [String]? {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            index = line.index(after: index)
            if quoted {
                if character != "\"" {
                    field.append(character)
                } else if index < line.endIndex, line[index] == "\"" {
                    field.append("\"")
                    index = line.index(after: index)
                } else {
                    quoted = false
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field.trimmed)
                field = ""
            } else {
                field.append(character)
            }
        }
        guard !quoted else { return nil }
        fields.append(field.trimmed)
        return fields
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

//! The difference between two JSON values as a short list of edits, so that an answer a client
//! already holds is sent again as what changed (`agentws/previewPrompt` with `previousResultId`:
//! docs/protocol.md). A long string or array changed in one place becomes one splice; objects are
//! compared key by key.
//!
//! Offsets into strings are UTF-8 bytes, the unit of the preview's section ranges, and always fall
//! on character boundaries. Depends on nothing in the crate.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One step of a path into a value: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// One edit of the value at `path`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Edit {
    /// Puts `value` at `path` (a new key of an object, or any value replaced whole).
    Set { path: Vec<Step>, value: Value },
    /// Removes the key `path` ends with.
    Remove { path: Vec<Step> },
    /// Replaces `deleteCount` bytes of the string, or elements of the array, at `path` from
    /// `start` with `insert` (a string or an array).
    #[serde(rename_all = "camelCase")]
    Splice {
        path: Vec<Step>,
        start: usize,
        delete_count: usize,
        insert: Value,
    },
}

/// Strings shorter than this are set whole: a splice would be longer than the string.
const SPLICE_MIN_LEN: usize = 64;

/// The edits that turn `old` into `new` (none when they are equal).
pub fn diff(old: &Value, new: &Value) -> Vec<Edit> {
    let mut edits = Vec::new();
    diff_at(&mut Vec::new(), old, new, &mut edits);
    edits
}

/// [`diff`] of the values at `path`, added to `edits`.
pub fn diff_at(path: &mut Vec<Step>, old: &Value, new: &Value, edits: &mut Vec<Edit>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => diff_objects(path, a, b, edits),
        (Value::String(a), Value::String(b)) if a.len().max(b.len()) >= SPLICE_MIN_LEN => {
            edits.extend(string_splice(path, a, b));
        }
        (Value::Array(a), Value::Array(b)) => diff_lists(path, a, b, edits, diff_at),
        _ if old == new => {}
        _ => edits.push(Edit::Set {
            path: path.clone(),
            value: new.clone(),
        }),
    }
}

fn diff_objects(
    path: &mut Vec<Step>,
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    edits: &mut Vec<Edit>,
) {
    for (key, new) in b {
        path.push(Step::Key(key.clone()));
        match a.get(key) {
            Some(old) => diff_at(path, old, new, edits),
            None => edits.push(Edit::Set {
                path: path.clone(),
                value: new.clone(),
            }),
        }
        path.pop();
    }
    for key in a.keys().filter(|k| !b.contains_key(*k)) {
        path.push(Step::Key(key.clone()));
        edits.push(Edit::Remove { path: path.clone() });
        path.pop();
    }
}

/// The changed middle of two strings as one splice, cut on character boundaries; `None` when
/// they are equal.
pub fn string_splice(path: &[Step], a: &str, b: &str) -> Option<Edit> {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let mut prefix = common_prefix_len(x, y);
    if prefix == x.len() && prefix == y.len() {
        return None;
    }
    while !a.is_char_boundary(prefix) || !b.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let mut suffix = common_suffix_len(&x[prefix..], &y[prefix..]);
    while !a.is_char_boundary(a.len() - suffix) || !b.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    Some(Edit::Splice {
        path: path.to_vec(),
        start: prefix,
        delete_count: a.len() - suffix - prefix,
        insert: Value::String(b[prefix..b.len() - suffix].to_string()),
    })
}

/// Compared a block at a time (a `memcmp`), then byte by byte in the first block that differs:
/// preview texts are megabytes long.
const BLOCK: usize = 4096;

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let equal_blocks = a
        .chunks(BLOCK)
        .zip(b.chunks(BLOCK))
        .take_while(|(x, y)| x == y)
        .count();
    let start = equal_blocks * BLOCK;
    let rest = a[start.min(a.len())..]
        .iter()
        .zip(&b[start.min(b.len())..])
        .take_while(|(x, y)| x == y)
        .count();
    (start + rest).min(a.len()).min(b.len())
}

fn common_suffix_len(a: &[u8], b: &[u8]) -> usize {
    let equal_blocks = a
        .rchunks(BLOCK)
        .zip(b.rchunks(BLOCK))
        .take_while(|(x, y)| x == y)
        .count();
    let end = equal_blocks * BLOCK;
    let rest = a[..a.len().saturating_sub(end)]
        .iter()
        .rev()
        .zip(b[..b.len().saturating_sub(end)].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (end + rest).min(a.len()).min(b.len())
}

/// [`diff_at`] of two values' JSON, made only when they differ: for the parts of a typed value
/// that are small or seldom change.
pub fn diff_serialized<T: Serialize + PartialEq>(
    path: &mut Vec<Step>,
    old: &T,
    new: &T,
    edits: &mut Vec<Edit>,
) {
    if old != new {
        let json = |v: &T| serde_json::to_value(v).unwrap_or(Value::Null);
        diff_at(path, &json(old), &json(new), edits);
    }
}

/// Two lists at `path`: equal ends are kept; a middle of the same length on both sides is
/// compared element by element with `element` (an edited entry becomes an edit inside it), any
/// other middle is spliced with the new elements' JSON. Typed lists are compared without being
/// turned into JSON, but for what is spliced.
pub fn diff_lists<T: Serialize + PartialEq>(
    path: &mut Vec<Step>,
    a: &[T],
    b: &[T],
    edits: &mut Vec<Edit>,
    mut element: impl FnMut(&mut Vec<Step>, &T, &T, &mut Vec<Edit>),
) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let shorter = a.len().min(b.len());
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take(shorter - prefix)
        .take_while(|(x, y)| x == y)
        .count();
    let (old, new) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    if old.is_empty() && new.is_empty() {
        return;
    }
    if old.len() == new.len() {
        for (i, (x, y)) in old.iter().zip(new).enumerate() {
            path.push(Step::Index(prefix + i));
            element(path, x, y, edits);
            path.pop();
        }
        return;
    }
    edits.push(Edit::Splice {
        path: path.clone(),
        start: prefix,
        delete_count: old.len(),
        insert: serde_json::to_value(new).unwrap_or(Value::Null),
    });
}

/// Applies `edits` to `value` in order; an edit that does not fit the value is an error naming
/// it, and the value is left as the edits before it made it.
pub fn apply(value: &mut Value, edits: &[Edit]) -> Result<(), String> {
    for (i, edit) in edits.iter().enumerate() {
        apply_one(value, edit).map_err(|why| format!("edit {i}: {why}"))?;
    }
    Ok(())
}

fn apply_one(value: &mut Value, edit: &Edit) -> Result<(), String> {
    match edit {
        Edit::Set { path, value: new } => match path.split_last() {
            None => *value = new.clone(),
            Some((Step::Key(key), parent)) => match at(value, parent)? {
                Value::Object(map) => {
                    map.insert(key.clone(), new.clone());
                }
                _ => return Err(format!("no object at {parent:?}")),
            },
            Some((Step::Index(_), _)) => *at(value, path)? = new.clone(),
        },
        Edit::Remove { path } => match path.split_last() {
            Some((Step::Key(key), parent)) => match at(value, parent)? {
                Value::Object(map) => {
                    map.shift_remove(key)
                        .ok_or_else(|| format!("no key {key:?} to remove"))?;
                }
                _ => return Err(format!("no object at {parent:?}")),
            },
            _ => return Err("remove needs a path ending with a key".to_string()),
        },
        Edit::Splice {
            path,
            start,
            delete_count,
            insert,
        } => {
            let end = start
                .checked_add(*delete_count)
                .ok_or("splice past the end")?;
            match (at(value, path)?, insert) {
                (Value::String(s), Value::String(text)) => {
                    if end > s.len() || !s.is_char_boundary(*start) || !s.is_char_boundary(end) {
                        return Err(format!("splice {start}..{end} does not fit the string"));
                    }
                    s.replace_range(*start..end, text);
                }
                (Value::Array(items), Value::Array(new)) => {
                    if end > items.len() {
                        return Err(format!("splice {start}..{end} does not fit the array"));
                    }
                    items.splice(*start..end, new.iter().cloned());
                }
                _ => return Err(format!("no string or array to splice at {path:?}")),
            }
        }
    }
    Ok(())
}

fn at<'v>(value: &'v mut Value, path: &[Step]) -> Result<&'v mut Value, String> {
    path.iter().try_fold(value, |v, step| {
        match (v, step) {
            (Value::Object(map), Step::Key(key)) => map.get_mut(key),
            (Value::Array(items), Step::Index(i)) => items.get_mut(*i),
            _ => None,
        }
        .ok_or_else(|| format!("no value at {path:?}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn round_trip(old: &Value, new: &Value) -> Vec<Edit> {
        let edits = diff(old, new);
        let mut applied = old.clone();
        apply(&mut applied, &edits).unwrap();
        assert_eq!(&applied, new, "edits {edits:?}");
        edits
    }

    #[test]
    fn one_change_in_a_long_text_is_one_splice_on_character_boundaries() {
        let old = json!({"text": format!("{}é{}", "a".repeat(100), "b".repeat(100))});
        let new = json!({"text": format!("{}è{}", "a".repeat(100), "b".repeat(100))});
        let edits = round_trip(&old, &new);
        // é (C3 A9) and è (C3 A8) share their first byte: the splice still takes the whole
        // character.
        assert_eq!(
            serde_json::to_value(&edits).unwrap(),
            json!([{"op": "splice", "path": ["text"], "start": 100, "deleteCount": 2, "insert": "è"}])
        );
    }

    #[test]
    fn texts_longer_than_a_block_differ_where_they_differ() {
        let long = format!("{}é{}", "x".repeat(2 * BLOCK), "y".repeat(BLOCK + 17));
        for at in [0, BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 2, long.len()] {
            let new = format!("{}😀{}", &long[..at], &long[at..]);
            let edits = round_trip(&json!(long), &json!(new));
            let [Edit::Splice {
                start,
                delete_count: 0,
                insert,
                ..
            }] = edits.as_slice()
            else {
                panic!("{edits:?}");
            };
            assert_eq!((*start, insert), (at, &json!("😀")));
        }
        let cut = format!("{}{}", &long[..BLOCK + 3], &long[BLOCK + 5..]);
        round_trip(&json!(long), &json!(cut));
        assert!(diff(&json!(long), &json!(long.clone())).is_empty());
    }

    #[test]
    fn an_element_inserted_in_a_long_array_is_one_splice() {
        let old = json!({"s": [1, 2, 3, 4, 5]});
        let new = json!({"s": [1, 2, 9, 3, 4, 5]});
        let edits = round_trip(&old, &new);
        assert_eq!(
            serde_json::to_value(&edits).unwrap(),
            json!([{"op": "splice", "path": ["s"], "start": 2, "deleteCount": 0, "insert": [9]}])
        );
    }

    #[test]
    fn an_edited_element_is_an_edit_inside_it() {
        let old =
            json!({"sections": [{"range": {"start": 0, "end": 5}, "label": "a"}, {"label": "b"}]});
        let new =
            json!({"sections": [{"range": {"start": 0, "end": 7}, "label": "a"}, {"label": "b"}]});
        let edits = round_trip(&old, &new);
        assert_eq!(
            serde_json::to_value(&edits).unwrap(),
            json!([{"op": "set", "path": ["sections", 0, "range", "end"], "value": 7}])
        );
    }

    #[test]
    fn keys_come_and_go() {
        let edits = round_trip(&json!({"a": 1, "b": null}), &json!({"a": 1, "c": [true]}));
        assert_eq!(
            serde_json::to_value(&edits).unwrap(),
            json!([{"op": "set", "path": ["c"], "value": [true]}, {"op": "remove", "path": ["b"]}])
        );
        assert!(diff(&json!({"x": "same"}), &json!({"x": "same"})).is_empty());
    }

    #[test]
    fn an_edit_that_does_not_fit_is_an_error() {
        let mut value = json!({"text": "héllo"});
        let splice = |start, delete_count| Edit::Splice {
            path: vec![Step::Key("text".into())],
            start,
            delete_count,
            insert: json!(""),
        };
        assert!(apply(&mut value, &[splice(2, 1)]).is_err(), "inside é");
        assert!(apply(&mut value, &[splice(5, 9)]).is_err(), "past the end");
        assert!(apply(&mut value, &[splice(usize::MAX, 2)]).is_err());
        let remove = Edit::Remove {
            path: vec![Step::Key("gone".into())],
        };
        assert!(apply(&mut value, &[remove]).is_err());
        assert_eq!(value, json!({"text": "héllo"}));
    }

    fn text() -> impl Strategy<Value = String> {
        // Few characters, some of them multi-byte, so that ends often agree and splices land
        // next to multi-byte characters; lengths on both sides of SPLICE_MIN_LEN.
        proptest::collection::vec(
            prop_oneof![Just('a'), Just('b'), Just('é'), Just('😀')],
            0..90,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u32..4).prop_map(Value::from),
            text().prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map(
                    prop_oneof![Just("a"), Just("b"), Just("c")].prop_map(str::to_string),
                    inner,
                    0..3
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn the_edits_turn_the_old_value_into_the_new(old in value(), new in value()) {
            round_trip(&old, &new);
            prop_assert!(diff(&new, &new).is_empty());
        }
    }
}

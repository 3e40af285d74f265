//! A session's project, from its working folder: the longest configured folder prefix
//! (`[projects]` in the configuration, checked by `crate::config::projects`), else the name of the git top-level folder holding it, else
//! the folder's own name.
use std::collections::BTreeMap;
use std::path::Path;

pub fn project_of(cwd: &str, prefixes: &BTreeMap<String, String>) -> Option<String> {
    let path = Path::new(cwd);
    let mapped = prefixes
        .iter()
        .filter(|(prefix, _)| path.starts_with(prefix.as_str()))
        .max_by_key(|(prefix, _)| Path::new(prefix.as_str()).components().count());
    if let Some((_, name)) = mapped {
        return Some(name.clone());
    }
    let top = path.ancestors().find(|dir| dir.join(".git").exists());
    top.unwrap_or(path)
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_then_git_then_folder() {
        let dir = std::env::temp_dir().join(format!("recall-project-{}", std::process::id()));
        let inner = dir.join("shop").join("src").join("api");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(dir.join("shop").join(".git")).unwrap();
        let none = BTreeMap::new();
        assert_eq!(
            project_of(inner.to_str().unwrap(), &none),
            Some("shop".into())
        );
        assert_eq!(project_of("/nowhere/at/all", &none), Some("all".into()));
        let map: BTreeMap<String, String> = [
            (dir.to_string_lossy().to_string(), "outer".to_string()),
            (
                dir.join("shop/src").to_string_lossy().to_string(),
                "inner".to_string(),
            ),
            // A prefix of the text but not of the path's folders does not apply.
            (
                dir.join("sh").to_string_lossy().to_string(),
                "wrong".to_string(),
            ),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            project_of(inner.to_str().unwrap(), &map),
            Some("inner".into())
        );
        assert_eq!(
            project_of(dir.join("shop").to_str().unwrap(), &map),
            Some("outer".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

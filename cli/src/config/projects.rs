//! `[projects]`: which project a working folder belongs to, when its name is not the
//! right one (a checkout called `src`, several folders of one project). Each key is an
//! absolute folder, of this system or another (`C:\Users\me\shop` for sessions read
//! from Windows); each value the project of every folder inside it.
use std::collections::BTreeMap;

use crate::project::is_absolute_folder;

pub fn check(projects: &BTreeMap<String, String>) -> std::result::Result<(), String> {
    for (folder, name) in projects {
        if !is_absolute_folder(folder) {
            return Err(format!(
                "projects: {folder:?} is not an absolute folder; write the whole path, \
                 e.g. \"/home/me/src/{folder}\" = {name:?}"
            ));
        }
        if name.trim().is_empty() {
            return Err(format!(
                "projects: the project of {folder:?} is empty; give it a name"
            ));
        }
    }
    Ok(())
}

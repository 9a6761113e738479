/* msg_tables.h: the message catalogue's tables, generated from po/ at
   build time by po/po2c.py (po/meson.build). Only msg.c and tests read
   them; everyone else calls msg.h. */
#ifndef RAYPICK_MSG_TABLES_H
#define RAYPICK_MSG_TABLES_H

typedef struct msg_table_language {
    const char *code;               /* "en", "de", "zh" */
    const char *const *texts;       /* msg_table_count texts, UTF-8; NULL: none */
} msg_table_language;

extern const int msg_table_count;
extern const char *const msg_table_ids[];      /* sorted by strcmp */
extern const int msg_table_language_count;
extern const msg_table_language msg_table_languages[];   /* English first */
extern const char *const msg_table_codes[];     /* their codes, then NULL */

#endif
